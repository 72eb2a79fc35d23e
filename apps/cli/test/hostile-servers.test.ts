/**
 * One hostile MCP server (packages/testkit/fixtures/hostile-server.mjs) beside
 * a healthy one never stops indusr or the healthy peer: `mcp status` shows
 * the peer ready and the hostile one degraded (or faulted) with a reason
 * naming the field, `indusr tools` lists both, and the gateway keeps serving
 * the peer. Built CLI, real processes.
 */
import path from "node:path";
import { stdioServer } from "@indus/contract";
import { createServerEndpoint } from "@indus/endpoint";
import { BIN, makeSandbox, runCli, type Sandbox } from "./support/run-cli";
import { everythingRow, fixtureRow, writeConfig } from "./support/servers";

jest.setTimeout(180_000);

/**
 * Deadlines past the run's own: a loaded machine makes a 30 MB discover or a 10,000-level schema slow, and a
 * deadline firing first would replace the reason under test (the hang-list case sets its own list deadline).
 */
const PATIENT = { startupTimeoutMs: 150_000, listTimeoutMs: 150_000, toolTimeoutMs: 150_000 };
const hostileRow = (...options: string[]) => ({ ...fixtureRow("hostile-server.mjs", ...options), ...PATIENT });
const peerRow = () => ({ ...everythingRow(), ...PATIENT });

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
  sandbox.env.XDG_STATE_HOME = path.join(sandbox.root, "state");
});
afterEach(() => sandbox.cleanup());

interface StatusJson {
  readonly name: string;
  readonly phase: string;
  readonly tools: number;
  readonly issues?: readonly string[];
  readonly fault: { kind: string; message: string } | null;
  readonly listFault?: { kind: string; message: string };
}

const peerReady = expect.objectContaining({ name: "peer", phase: "ready", fault: null });

/** One hostile server per case, all beside one peer in a single `mcp status` run (each row is its own server). */
const CASES = {
  deepSchema: hostileRow("deep-schema=10000"),
  deepMeta: hostileRow("deep-meta=10000"),
  bigDiscover: hostileRow("era=modern", "big-discover=30000000"),
  deepDiscover: hostileRow("era=modern", "deep-discover=10000"),
  negativeTtl: hostileRow("era=modern", "ttl=-5"),
  nanTtl: hostileRow("era=modern", 'ttl="NaN"'),
  noScope: hostileRow("era=modern", "no-scope"),
  failCatalog: hostileRow("era=modern", "fail-catalog"),
  badCatalog: hostileRow("bad-catalog"),
  hangList: { ...hostileRow("hang-list"), listTimeoutMs: 5_000 },
  hangCatalog: { ...hostileRow("hang-catalog"), listTimeoutMs: 5_000 },
  silentListen: hostileRow("era=modern", "silent-listen"),
};

describe("mcp status beside a healthy peer", () => {
  let shared: Sandbox;
  let code: number | null;
  let rows: StatusJson[];
  beforeAll(async () => {
    shared = makeSandbox();
    shared.env.XDG_STATE_HOME = path.join(shared.root, "state");
    const config = writeConfig(shared.root, { peer: peerRow(), ...CASES });
    const result = await runCli(["mcp", "status", "--json", "--mcp", config], { sandbox: shared });
    code = result.code;
    rows = JSON.parse(result.stdout) as StatusJson[];
  });
  afterAll(() => shared.cleanup());

  const row = (name: keyof typeof CASES) => rows.find((entry) => entry.name === name);

  it("lists the peer ready, first, and exits 1 for the hostile rows", () => {
    expect(rows.map((entry) => entry.name)).toEqual(["peer", ...Object.keys(CASES)]);
    expect(rows[0]).toEqual(peerReady);
    expect(code).toBe(1);
  });

  it.each([
    ["a 10,000-level inputSchema", "deepSchema", /tool "deep" dropped: inputSchema nests deeper than 128 levels/],
    ["a 10,000-level _meta", "deepMeta", /tool "echo": _meta dropped/],
    ["30 MB of server/discover", "bigDiscover", /instructions cut to 65536 of 30000000/],
    ["a 10,000-level capability", "deepDiscover", /capability "experimental" dropped/],
    ["a negative ttlMs", "negativeTtl", /ttlMs -5 is not a whole number/],
    ['ttlMs "NaN"', "nanTtl", /ttlMs "NaN" is not a whole number/],
    ["ttlMs without cacheScope", "noScope", /cacheScope absent is neither/],
    [
      "prompt and resource lists answered with an error (2026)",
      "failCatalog",
      /^resources\/list: .*catalog store unavailable/,
    ],
  ] as const)("with %s the hostile server is degraded naming the field", (_what, name, reason) => {
    expect(row(name)).toEqual(
      expect.objectContaining({
        name,
        phase: "degraded",
        issues: expect.arrayContaining([expect.stringMatching(reason)]),
      }),
    );
  });

  it("a malformed catalog entry is named in zod's English words (the bundle keeps that locale)", () => {
    expect(row("badCatalog")).toMatchObject({ name: "badCatalog", phase: "degraded" });
    expect(row("badCatalog")?.issues).toEqual(
      expect.arrayContaining([
        expect.stringContaining('field size "big" dropped (size: Invalid input: expected number'),
      ]),
    );
  });

  it("a tools/list that never answers is degraded with the reason, never ready with 0 tools", () => {
    expect(row("hangList")).toMatchObject({ name: "hangList", phase: "degraded", listFault: { kind: "timeout" } });
  });

  it("prompt and resource lists that never answer make the server degraded with the reason, never ready", () => {
    expect(row("hangCatalog")).toMatchObject({
      name: "hangCatalog",
      phase: "degraded",
      issues: expect.arrayContaining([expect.stringMatching(/^prompts\/list: .*timed out/)]),
    });
  });

  it("a 2026 server that never acknowledges its listen stream is ready in its era", () => {
    expect(row("silentListen")).toMatchObject({
      name: "silentListen",
      phase: expect.stringMatching(/^(ready|degraded)$/),
      tools: 1,
    });
  });
});

it("indusr tools lists the peer's tools and the hostile server's good one beside a 10,000-level schema", async () => {
  const config = writeConfig(sandbox.root, { peer: peerRow(), hostile: hostileRow("deep-schema=10000") });
  const result = await runCli(["tools", "--json", "--mcp", config], { sandbox });
  expect(result.code).toBe(0);
  const names = (JSON.parse(result.stdout) as { name: string }[]).map((tool) => tool.name);
  expect(names).toEqual(expect.arrayContaining(["peer__echo", "hostile__echo"]));
  expect(names).not.toContain("hostile__deep");
  expect(result.stderr).toMatch(/warning: MCP server "hostile": tools\/list: tool "deep" dropped/);
});

it("the gateway keeps serving the peer beside a hostile server", async () => {
  const config = writeConfig(sandbox.root, {
    peer: peerRow(),
    deep: hostileRow("deep-schema=10000", "deep-result=10000"),
  });
  const gateway = createServerEndpoint(
    {
      ...stdioServer(
        "gw",
        process.execPath,
        [BIN, "mcp", "serve", "--stdio", "--profile", "survey", "--mcp", config],
        sandbox.env as never,
      ),
      cwd: sandbox.cwd,
    },
    undefined,
    { timeouts: { startupMs: 150_000, listMs: 150_000, callMs: 150_000 } },
  );
  try {
    await gateway.open();
    const names = (await gateway.listTools()).map((tool) => tool.ref.name);
    expect(names).toEqual(expect.arrayContaining(["peer__echo", "deep__echo"]));
    // The gateway answers with the upstream's refusal, naming the path.
    await expect(gateway.invoke("deep__echo", {})).rejects.toThrow(
      /nesting deeper than 128 levels \(at structuredContent/,
    );
    const echoed = await gateway.invoke("peer__echo", { message: "still here" });
    expect(echoed).toMatchObject({ isError: false, content: [{ type: "text", text: "Echo: still here" }] });
  } finally {
    await gateway.close();
  }
});
