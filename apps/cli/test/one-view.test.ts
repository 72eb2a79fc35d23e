/**
 * One view of the tools: `indusr call <name>` runs exactly the tool `indusr
 * tools` lists under that name: app cards that work across servers
 * (`saas-action`), tools whose names clash across servers, and tools of a
 * deferred server (listed `deferred: true`, out of the model's list).
 */
import { makeSandbox, runCli, type Sandbox } from "./support/run-cli";
import { everythingRow, writeConfig } from "./support/servers";
import { TINY } from "./agent/support/agent-cli";

jest.setTimeout(120_000);

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

interface Listed {
  readonly name: string;
  readonly description: string;
  readonly origin: string;
  readonly deferred: boolean;
}

async function listed(config: string, ...extra: string[]): Promise<Listed[]> {
  const result = await runCli(["tools", "--json", "--mcp", config, ...extra], { sandbox });
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Listed[];
}

/** A tiny server named `id` offering exactly `tools`. */
const tiny = (id: string, ...tools: string[]) => ({ command: process.execPath, args: [TINY, id, ...tools] });

it("call saas-action discovers a mounted server's tool, as `indusr tools` offers it", async () => {
  const config = writeConfig(sandbox.root, { everything: everythingRow() });
  expect((await listed(config)).map((t) => t.name)).toContain("saas-action");
  const result = await runCli(["call", "saas-action", '{"action":"discover","query":"echo"}', "--mcp", config], {
    sandbox,
  });
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  const found = JSON.parse(result.stdout) as { matches: { name: string }[] };
  expect(found.matches.map((m) => m.name)).toContain("everything__echo");
});

it("with clashing names, call runs the tool `tools` lists under each name", async () => {
  // Server `t` tool `u__ping` and server `t__u` tool `ping` both want `t__u__ping`.
  const config = writeConfig(sandbox.root, { t: tiny("t", "u__ping"), t__u: tiny("t__u", "ping") });
  const clashing = (await listed(config)).filter((t) => t.name.startsWith("t__u__ping"));
  expect(clashing).toHaveLength(2);
  for (const tool of clashing) {
    // The listing says whose tool it is ([server] …); the call must reach that server.
    const owner = /^\[([^\]]+)\]/.exec(tool.description)?.[1];
    const result = await runCli(["call", tool.name, "{}", "--mcp", config], { sandbox });
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(new RegExp(` from ${owner}$`));
  }
  expect(new Set(clashing.map((t) => /^\[([^\]]+)\]/.exec(t.description)?.[1]))).toEqual(new Set(["t", "t__u"]));
});

it("lists a deferred server's tools marked deferred, and call runs them", async () => {
  const config = writeConfig(sandbox.root, { everything: { ...everythingRow(), defer: true } });
  const tools = await listed(config);
  const echo = tools.find((t) => t.name === "everything__echo");
  expect(echo).toMatchObject({ origin: "server", deferred: true });
  expect(tools.find((t) => t.name === "read")).toMatchObject({ deferred: false });
  const table = await runCli(["tools", "--mcp", config], { sandbox });
  expect(table.stdout).toMatch(/^everything__echo\s+deferred\s+no\s+\[everything\] Echoes back/m);
  expect(table.stdout).toMatch(/\d+ tools \(\+\d+ deferred\)/);
  const result = await runCli(["call", "everything__echo", '{"message":"late"}', "--mcp", config], { sandbox });
  expect(result.code).toBe(0);
  expect(result.stdout).toBe("Echo: late\n");
});
