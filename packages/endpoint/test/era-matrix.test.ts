/**
 * Both MCP eras, against real servers: a v2 modern-only server (stdio and
 * Streamable HTTP), a legacy server, and a legacy server that exits on any
 * request before `initialize` (rmcp-style). Spawns are counted by the
 * fixtures themselves (they append their pid to a file).
 */
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { memoryEraVerdictStore, type ServerConfig } from "@indus/contract";
import { createServerEndpoint, fileEraVerdictStore, type McpServerEndpoint } from "@indus/endpoint";
import { startModernHttp, type ModernHttpServer } from "./helpers/modern-http";
import { fixture } from "./helpers/servers";

const dir = mkdtempSync(path.join(os.tmpdir(), "era-matrix-"));
const spawns = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").length : 0);
let open: McpServerEndpoint[] = [];

async function connect(config: ServerConfig, options = {}): Promise<McpServerEndpoint> {
  const endpoint = createServerEndpoint(config, undefined, options);
  open.push(endpoint);
  await endpoint.open();
  return endpoint;
}

afterEach(async () => {
  await Promise.all(open.map((endpoint) => endpoint.close()));
  open = [];
});

describe("a modern-only v2 server", () => {
  let http: ModernHttpServer;
  beforeAll(async () => {
    http = await startModernHttp();
  });
  afterAll(() => http.close());

  it.each(["stdio", "streamable-http"] as const)("connects over %s in auto, lists and calls", async (transport) => {
    const config: ServerConfig =
      transport === "stdio"
        ? fixture("modern", "modern-server.mjs")
        : { transport, id: "modern", url: http.url, headers: {} };
    const endpoint = await connect(config, { eraVerdicts: memoryEraVerdictStore() });
    expect(endpoint.era).toBe("2026-07-28");
    expect(endpoint.status()).toMatchObject({ phase: "ready", era: "2026-07-28" });
    expect(endpoint.instructions).toBe("modern fixture instructions");
    const names = (await endpoint.listTools()).map((tool) => tool.ref.name);
    expect(names).toEqual(expect.arrayContaining(["echo", "region", "slow"]));
    await expect(endpoint.invoke("echo", { message: "hi" })).resolves.toMatchObject({
      content: [{ type: "text", text: "Echo: hi" }],
      isError: false,
    });
  });

  it.each(["stdio", "streamable-http"] as const)(
    "behind protocol legacy over %s, faults naming the era mismatch (never an SSE fallback)",
    async (transport) => {
      const config: ServerConfig =
        transport === "stdio"
          ? fixture("modern", "modern-server.mjs", [], { protocol: "legacy" })
          : { transport, id: "modern", url: http.url, headers: {}, protocol: "legacy" };
      const endpoint = createServerEndpoint(config);
      open.push(endpoint);
      const fault = await endpoint.open().catch((error: unknown) => error);
      expect(fault).toMatchObject({ kind: "protocol" });
      expect((fault as Error).message).toMatch(/speaks only MCP 2026-07-28.*pins protocol "legacy"/);
      expect((fault as Error).message).not.toMatch(/SSE/);
    },
  );

  it("mirrors x-mcp-header arguments into Mcp-Param-* headers over HTTP", async () => {
    const endpoint = await connect({ transport: "streamable-http", id: "modern", url: http.url, headers: {} });
    await endpoint.listTools();
    await expect(endpoint.invoke("region", { region: "eu-west" })).resolves.toMatchObject({
      content: [{ type: "text", text: "region eu-west (header eu-west)" }],
    });
  });

  it("pinned to 2026-07-28 connects too", async () => {
    const endpoint = await connect(fixture("modern", "modern-server.mjs", [], { protocol: "2026-07-28" }));
    expect(endpoint.era).toBe("2026-07-28");
  });
});

describe("verdicts", () => {
  it("a modern stdio server is spawned once per connect, first run and later runs", async () => {
    const log = path.join(dir, "modern-spawns");
    const store = fileEraVerdictStore(path.join(dir, "verdicts-modern.json"));
    const config = fixture("modern", "modern-server.mjs", [`spawnlog=${log}`]);
    await (await connect(config, { eraVerdicts: store })).close();
    expect(spawns(log)).toBe(1);
    const again = await connect(config, { eraVerdicts: fileEraVerdictStore(path.join(dir, "verdicts-modern.json")) });
    expect(again.era).toBe("2026-07-28");
    await again.invoke("echo", { message: "x" });
    expect(spawns(log)).toBe(2);
  });

  it("an rmcp-style server connects as legacy, and is spawned once on the next run", async () => {
    const log = path.join(dir, "rmcp-spawns");
    const file = path.join(dir, "verdicts-rmcp.json");
    const config = fixture("rmcp", "rmcp-style-server.mjs", [log]);
    const first = await connect(config, { eraVerdicts: fileEraVerdictStore(file) });
    expect(first.era).toBe("legacy");
    await expect(first.invoke("echo", { message: "a" })).resolves.toMatchObject({ content: [{ text: "rmcp: a" }] });
    await first.close();
    expect(spawns(log)).toBe(2); // the probe killed the first process
    const next = await connect(config, { eraVerdicts: fileEraVerdictStore(file) });
    expect(next.era).toBe("legacy");
    await expect(next.invoke("echo", { message: "b" })).resolves.toMatchObject({ content: [{ text: "rmcp: b" }] });
    expect(spawns(log)).toBe(3);
    expect(Object.values(JSON.parse(readFileSync(file, "utf8")) as object)).toEqual([
      expect.objectContaining({ kind: "legacy" }),
    ]);
  });

  it("a legacy server answers the probe and connects as legacy in one process", async () => {
    const endpoint = await connect(fixture("tiny", "tiny-server.mjs"), { eraVerdicts: memoryEraVerdictStore() });
    expect(endpoint.era).toBe("legacy");
    await expect(endpoint.invoke("echo", { message: "t" })).resolves.toMatchObject({ content: [{ text: "tiny: t" }] });
  });
});

describe("tolerant listing in both eras", () => {
  it.each(["2026-07-28", "legacy"] as const)(
    "one malformed tool never drops the page; it is kept with an empty schema (%s)",
    async (protocol) => {
      const endpoint = await connect(fixture("bad", "modern-server.mjs", ["badtool", "legacy=serve"], { protocol }));
      expect(endpoint.era).toBe(protocol);
      const tools = await endpoint.listTools();
      expect(tools.map((tool) => tool.ref.name)).toEqual(expect.arrayContaining(["echo", "region", "broken"]));
      expect(tools.find((tool) => tool.ref.name === "broken")!.descriptor.parameters).toMatchObject({ type: "object" });
      // The 2026 era repairs it before the SDK's codec and says so; the legacy era normalizes it quietly.
      if (protocol === "2026-07-28") expect(endpoint.listIssues.join("\n")).toMatch(/broken.*repaired/);
    },
  );
});
