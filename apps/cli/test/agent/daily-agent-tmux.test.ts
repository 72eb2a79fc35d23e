/**
 * indusr as a daily coding agent, on a real terminal (tmux) with the scripted
 * model over both wires: a Claude Code project (`.mcp.json`, `AGENTS.md`)
 * asks before its servers start and its instructions reach the model;
 * questions take one key and ask again on anything else; `--continue` goes
 * on with the last conversation; an overflowing request is compacted and the
 * same prompt then succeeds.
 */
import fs from "node:fs";
import path from "node:path";
import { callTool, fail, lastToolResults, say, type Protocol } from "./fake-model/fake-model-server";
import { TINY } from "./support/agent-cli";
import { useAgentTest } from "./support/agent-test";
import { waitForPrompt, type TmuxSession } from "./support/tmux";

jest.setTimeout(240_000);

const t = useAgentTest();

/** A Claude Code project: a git root with `.mcp.json` (one tiny server, `ev`) and an `AGENTS.md`. */
function claudeProject(cwd: string): void {
  fs.mkdirSync(path.join(cwd, ".git"), { recursive: true });
  fs.writeFileSync(
    path.join(cwd, ".mcp.json"),
    JSON.stringify({ mcpServers: { ev: { command: process.execPath, args: [TINY, "ev"] } } }),
  );
  fs.writeFileSync(path.join(cwd, "AGENTS.md"), "# House rules\nAlways answer in haiku. MARKER-7731\n");
}

const providerArgs = (protocol: Protocol): string[] => (protocol === "anthropic" ? ["--provider", "anthropic"] : []);

async function leave(tmux: TmuxSession): Promise<void> {
  tmux.type("/exit");
  await tmux.waitFor(/\[exited 0\]/);
}

describe.each<Protocol>(["openai", "anthropic"])("over %s", (protocol) => {
  test("a Claude Code project: the session asks before .mcp.json's servers start, AGENTS.md reaches the model, one-key answers ask again on anything else, and --continue goes on", async () => {
    claudeProject(t.sandbox.cwd);
    const fake = await t.model([
      callTool("ev__ping", {}, { text: "Pinging." }),
      (request) => say(`ping said <${lastToolResults(request)[0]?.text}>`),
      (request) => say(`continued after ${request.messages.filter((m) => m.role === "user").length} prompts`),
    ]);
    const tmux = t.terminal(providerArgs(protocol), fake);
    await tmux.waitFor(
      /\? start ev from \.mcp\.json \(another tool's project file, not approved in this folder\)\? \[y\]es · \[n\]o · \[a\]ll pending files ›/,
    );
    tmux.type("x", false);
    await tmux.waitFor(/✗ press y, n or a/);
    tmux.type("y", false);
    const banner = await waitForPrompt(tmux);
    expect(banner).toMatch(/· ev ✓/);

    tmux.type("ping the server");
    await tmux.waitFor(
      /\? allow ev__ping .*\[y\]es once · \[a\]lways ev__ping here · \[s\]erver: all of ev here · \[n\]o ›/,
    );
    tmux.type("x", false);
    await tmux.waitFor(/✗ press y, a, s or n/);
    tmux.type("y", false);
    await tmux.waitFor(/ping said <pong from ev>/);
    await waitForPrompt(tmux);
    const first = fake.requests[0]!;
    expect(first.protocol).toBe(protocol);
    expect(first.system).toContain("MARKER-7731");
    expect(first.system).toContain(path.join(t.sandbox.cwd, "AGENTS.md"));
    expect(first.tools.find((tool) => tool.name === "ev__ping")?.description).toMatch(/^\[ev\] ping on the ev server/);

    tmux.type("/status");
    await tmux.waitFor(/instructions \S+AGENTS\.md \(project, \d+ bytes\)/);
    await leave(tmux);
    tmux.kill();

    // A new session in the same folder goes on with that conversation: the tool result included.
    const again = t.terminal([...providerArgs(protocol), "--continue"], fake);
    await again.waitFor(/◆ resumed \S+: \d+ messages \(1 prompt\) with their tool results/);
    await waitForPrompt(again);
    again.type("and then?");
    await again.waitFor(/continued after 2 prompts/);
    const next = fake.requests.at(-1)!;
    expect(next.messages[0]!.text).toBe("ping the server");
    expect(next.messages.some((m) => m.toolResults.some((r) => r.text.includes("pong from ev")))).toBe(true);
    await leave(again);
  });

  test("a context-length refusal is compacted once and the same prompt succeeds; the next prompt works too", async () => {
    const tooLong =
      protocol === "anthropic"
        ? "prompt is too long: 210000 tokens > 200000 maximum"
        : "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens (context_length_exceeded).";
    const fake = await t.model([
      say("first answer"),
      fail(400, tooLong),
      // The compaction request: the older turns, to be summarised.
      (request) => say(request.messages[0]!.text.includes("first question") ? "SUMMARY of the first question" : "?"),
      (request) =>
        say(
          request.messages[0]!.text.includes("SUMMARY of the first question") &&
            request.messages.at(-1)!.text === "overflow now"
            ? "fits now"
            : "lost the thread",
        ),
      say("still fine"),
    ]);
    const tmux = t.terminal([...providerArgs(protocol), "--no-tools"], fake);
    await waitForPrompt(tmux);
    tmux.type("first question");
    await tmux.waitFor(/first answer/);
    await waitForPrompt(tmux);
    tmux.type("overflow now");
    await tmux.waitFor(/◆ compacted \(the model refused the request as too long\): 2 earlier messages summarised/);
    await tmux.waitFor(/fits now/);
    await waitForPrompt(tmux);
    tmux.type("one more");
    await tmux.waitFor(/still fine/);
    await leave(tmux);
  });
});
