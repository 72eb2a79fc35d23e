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

async function status(hostile: ReturnType<typeof hostileRow>): Promise<{ code: number | null; rows: StatusJson[] }> {
  const config = writeConfig(sandbox.root, { peer: peerRow(), hostile });
  const result = await runCli(["mcp", "status", "--json", "--mcp", config], { sandbox });
  return { code: result.code, rows: JSON.parse(result.stdout) as StatusJson[] };
}

const peerReady = expect.objectContaining({ name: "peer", phase: "ready", fault: null });

it.each([
  [
    "a 10,000-level inputSchema",
    ["deep-schema=10000"],
    /tool "deep" dropped: inputSchema nests deeper than 128 levels/,
  ],
  ["a 10,000-level _meta", ["deep-meta=10000"], /tool "echo": _meta dropped/],
  ["30 MB of server/discover", ["era=modern", "big-discover=30000000"], /instructions cut to 65536 of 30000000/],
  ["a 10,000-level capability", ["era=modern", "deep-discover=10000"], /capability "experimental" dropped/],
  ["a negative ttlMs", ["era=modern", "ttl=-5"], /ttlMs -5 is not a whole number/],
  ['ttlMs "NaN"', ["era=modern", 'ttl="NaN"'], /ttlMs "NaN" is not a whole number/],
  ["ttlMs without cacheScope", ["era=modern", "no-scope"], /cacheScope absent is neither/],
  [
    "prompt and resource lists answered with an error (2026)",
    ["era=modern", "fail-catalog"],
    /^resources\/list: .*catalog store unavailable/,
  ],
])(
  "mcp status: with %s the peer is ready, the hostile server degraded naming the field",
  async (_what, options, reason) => {
    const { code, rows } = await status(hostileRow(...options));
    expect(rows).toEqual([
      peerReady,
      expect.objectContaining({
        name: "hostile",
        phase: "degraded",
        issues: expect.arrayContaining([expect.stringMatching(reason)]),
      }),
    ]);
    expect(code).toBe(1);
  },
);

it("mcp status: a malformed catalog entry is named in zod's English words (the bundle keeps that locale)", async () => {
  const { rows } = await status(hostileRow("bad-catalog"));
  expect(rows[0]).toEqual(peerReady);
  expect(rows[1]).toMatchObject({ name: "hostile", phase: "degraded" });
  expect(rows[1]?.issues).toEqual(
    expect.arrayContaining([expect.stringContaining('field size "big" dropped (size: Invalid input: expected number')]),
  );
});

it("mcp status: a tools/list that never answers is degraded with the reason, never ready with 0 tools", async () => {
  const { rows } = await status({ ...hostileRow("hang-list"), listTimeoutMs: 5_000 });
  expect(rows[0]).toEqual(peerReady);
  expect(rows[1]).toMatchObject({ name: "hostile", phase: "degraded", listFault: { kind: "timeout" } });
});

it("mcp status: prompt and resource lists that never answer make the server degraded with the reason, never ready", async () => {
  const { rows } = await status({ ...hostileRow("hang-catalog"), listTimeoutMs: 5_000 });
  expect(rows[0]).toEqual(peerReady);
  expect(rows[1]).toMatchObject({
    name: "hostile",
    phase: "degraded",
    issues: expect.arrayContaining([expect.stringMatching(/^prompts\/list: .*timed out/)]),
  });
});

it("mcp status: a 2026 server that never acknowledges its listen stream is ready in its era", async () => {
  const { rows } = await status(hostileRow("era=modern", "silent-listen"));
  expect(rows[1]).toMatchObject({ name: "hostile", phase: expect.stringMatching(/^(ready|degraded)$/), tools: 1 });
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
