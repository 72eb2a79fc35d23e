/**
 * Live servers in the interactive session, on a real terminal (tmux) with the
 * scripted model over both wires: a server killed while idle is announced at
 * once with its cause and its tools leave the next request, `/mcp reconnect`
 * brings them back; an HTTP server killed and started again reconnects by
 * itself; a tool a server adds mid-call (`tools/list_changed`) is in the very
 * next request of the same turn.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { FIXTURES, startEverythingHttp, type EverythingHttp } from "@indus/testkit";
import { callTool, say, type Protocol, type SeenRequest } from "./fake-model/fake-model-server";
import { TINY } from "./support/agent-cli";
import { useAgentTest } from "./support/agent-test";
import { waitForPrompt } from "./support/tmux";

jest.setTimeout(240_000);

const t = useAgentTest();

const providerArgs = (protocol: Protocol): string[] => (protocol === "anthropic" ? ["--provider", "anthropic"] : []);
const toolNames = (request: SeenRequest) => request.tools.map((tool) => tool.name);

/** The pid of the tiny server started with this name (its argv is unique to the test). */
function serverPid(name: string): number {
  const out = execFileSync("pgrep", ["-f", `${TINY} ${name}`], { encoding: "utf8" });
  return Number(out.trim().split("\n")[0]);
}

describe.each<Protocol>(["openai", "anthropic"])("over %s", (protocol) => {
  test("a server killed while idle is announced at once, its tools leave the next request, /mcp reconnect brings them back", async () => {
    const victim = `victim${protocol}`;
    const fake = await t.model([say("first"), say("second")]);
    const mcp = t.sandbox.mcpConfig({ [victim]: { command: process.execPath, args: [TINY, victim] } });
    const tmux = t.terminal([...providerArgs(protocol), "--mcp", mcp], fake);
    await tmux.waitFor(new RegExp(`${victim} ✓`));
    await waitForPrompt(tmux);

    process.kill(serverPid(victim), "SIGKILL");
    await tmux.waitFor(
      new RegExp(
        `✗ ${victim} stopped: server "${victim}" was killed by SIGKILL.* · its tools are withdrawn · /mcp reconnect ${victim}`,
      ),
    );
    await waitForPrompt(tmux);
    tmux.type("which tools now?");
    await tmux.waitFor(/first/);
    expect(toolNames(fake.requests[0]!).some((name) => name.startsWith(`${victim}__`))).toBe(false);
    await waitForPrompt(tmux);

    tmux.type(`/mcp reconnect ${victim}`);
    await tmux.waitFor(new RegExp(`✓ ${victim}\\s+stdio\\s+3 tools`));
    await waitForPrompt(tmux);
    tmux.type("and now?");
    await tmux.waitFor(/second/);
    expect(toolNames(fake.requests[1]!)).toEqual(expect.arrayContaining([`${victim}__ping`, `${victim}__store`]));
  });

  test("a tool added by list_changed during a call is in the very next request of the same turn", async () => {
    const fake = await t.model([
      callTool("lt__arm_lt", {}),
      (request) => say(toolNames(request).includes("lt__late") ? "late tool seen" : "late tool missing"),
    ]);
    // Under the default trust a tool added after the first listing is pinned at first sight, and announced.
    const mcp = t.sandbox.mcpConfig({
      lt: { command: process.execPath, args: [path.join(FIXTURES, "late-tool-server.mjs"), "lt"] },
    });
    const tmux = t.terminal([...providerArgs(protocol), "--mcp", mcp, "--allow", "lt__*"], fake);
    await tmux.waitFor(/lt ✓/);
    await waitForPrompt(tmux);
    tmux.type("arm it");
    await tmux.waitFor(/late tool (seen|missing)/);
    expect(toolNames(fake.requests[0]!)).not.toContain("lt__late");
    expect(tmux.screen()).toContain("late tool seen");
    expect(tmux.screen()).toContain('tool "late" of server "lt" was added since pinned');
  });
});

test("an HTTP server killed while idle is announced, and comes back by itself once it is started again", async () => {
  const servers: EverythingHttp[] = [await startEverythingHttp("streamableHttp")];
  try {
    const fake = await t.model([say("first"), say("second")]);
    const mcp = t.sandbox.mcpConfig({ remote: { type: "http", url: servers[0]!.url } });
    const tmux = t.terminal(["--mcp", mcp], fake);
    await tmux.waitFor(/remote ✓/);
    await waitForPrompt(tmux);

    await servers[0]!.stop();
    await tmux.waitFor(/✗ remote lost; reconnecting: .* · its tools are withdrawn/);
    await waitForPrompt(tmux);
    tmux.type("which tools now?");
    await tmux.waitFor(/first/);
    expect(toolNames(fake.requests[0]!).some((name) => name.startsWith("remote__"))).toBe(false);
    await waitForPrompt(tmux);

    servers.push(await startEverythingHttp("streamableHttp", servers[0]!.port));
    await tmux.waitFor(/✓ remote is back · \d+ tools/);
    await waitForPrompt(tmux);
    tmux.type("and now?");
    await tmux.waitFor(/second/);
    expect(toolNames(fake.requests[1]!)).toContain("remote__echo");
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
});
