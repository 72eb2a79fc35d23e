/**
 * Going on with earlier work, on a real terminal (tmux) with the scripted
 * model: `/compact <focus>` summarises the older turns with the focus asked;
 * `--resume` offers this folder's conversations newest first and goes on with
 * the one picked; `/resume` switches mid-session (a compacted conversation
 * comes back compacted); an "always" answer holds in the next session of the
 * same project and nowhere else.
 */
import fs from "node:fs";
import path from "node:path";
import { callTool, say, type SeenRequest } from "./fake-model/fake-model-server";
import { bin } from "./support/agent-cli";
import { useAgentTest } from "./support/agent-test";
import { TmuxSession, waitForPrompt } from "./support/tmux";

jest.setTimeout(240_000);

const t = useAgentTest();

async function leave(tmux: TmuxSession): Promise<void> {
  tmux.type("/exit");
  await tmux.waitFor(/\[exited 0\]/);
  tmux.kill();
}

const firstText = (request: SeenRequest): string => request.messages[0]?.text ?? "";

test("/compact <focus>, then --resume picks an older conversation and /resume goes back to the compacted one", async () => {
  const fake = await t.model([
    say("alpha answer"),
    say("beta one answer"),
    say("beta two answer"),
    // The /compact request: the older turns and the focus.
    (request) =>
      say(
        firstText(request).includes("Above all keep: the beta numbers") && firstText(request).includes("beta one")
          ? "SUMMARY-OF-BETA"
          : "bad summary request",
      ),
    (request) => say(firstText(request).includes("SUMMARY-OF-BETA") ? "went on from the summary" : "lost the summary"),
    (request) => say(firstText(request) === "alpha question" ? "back in alpha" : "not alpha"),
    (request) => say(firstText(request).includes("SUMMARY-OF-BETA") ? "back in beta, compacted" : "not beta"),
  ]);

  const alpha = t.terminal(["--no-tools"], fake);
  await waitForPrompt(alpha);
  alpha.type("alpha question");
  await alpha.waitFor(/alpha answer/);
  await waitForPrompt(alpha);
  await leave(alpha);

  const beta = t.terminal(["--no-tools"], fake);
  await waitForPrompt(beta);
  beta.type("beta one");
  await beta.waitFor(/beta one answer/);
  await waitForPrompt(beta);
  beta.type("beta two");
  await beta.waitFor(/beta two answer/);
  await waitForPrompt(beta);
  beta.type("/compact the beta numbers");
  await beta.waitFor(/◆ compacted \(\/compact\): 2 earlier messages summarised, 2 kept; the transcript keeps all/);
  await waitForPrompt(beta);
  beta.type("go on");
  await beta.waitFor(/went on from the summary/);
  await waitForPrompt(beta);
  await leave(beta);

  // The picker: newest first, titled by the first prompt; "2" is alpha.
  const third = t.terminal(["--no-tools", "--resume"], fake);
  const picker = await third.waitFor(/\? resume which\? \[1-2\]/);
  expect(picker.indexOf("beta one")).toBeGreaterThan(-1);
  expect(picker.indexOf("beta one")).toBeLessThan(picker.indexOf("alpha question"));
  third.type("2");
  await third.waitFor(/◆ resumed \S+: 2 messages \(1 prompt\)/);
  await waitForPrompt(third);
  third.type("where am I?");
  await third.waitFor(/back in alpha/);
  await waitForPrompt(third);

  // /resume mid-session: Enter takes the newest other conversation (beta), compacted as it was left.
  third.type("/resume");
  await third.waitFor(/\? resume which\?/);
  third.type("");
  await third.waitFor(/◆ resumed \S+: \d+ messages \(\d+ prompts?\)/);
  await waitForPrompt(third);
  third.type("and here?");
  await third.waitFor(/back in beta, compacted/);
  await leave(third);
});

test('"always" for a tool holds in the next session of the same project, and not in another project', async () => {
  const fake = await t.model([
    callTool("write", { path: "one.txt", content: "one\n" }),
    say("wrote one"),
    callTool("write", { path: "two.txt", content: "two\n" }),
    say("wrote two"),
    callTool("write", { path: "three.txt", content: "three\n" }),
    say("wrote three"),
  ]);
  const root = t.sandbox.cwd;
  fs.mkdirSync(path.join(root, ".git"), { recursive: true });

  const first = t.terminal([], fake);
  await waitForPrompt(first);
  first.type("write one");
  await first.waitFor(/\? allow write one\.txt\s+\[y\]es once · \[a\]lways write here · \[n\]o ›/);
  first.type("a", false);
  await first.waitFor(/wrote one/);
  await waitForPrompt(first);
  first.type("/status");
  await first.waitFor(/allowed\s+write in /);
  await leave(first);

  // Same project, a new session: no question.
  const second = t.terminal([], fake);
  await waitForPrompt(second);
  second.type("write two");
  await second.waitFor(/wrote two/);
  expect(second.screen()).not.toMatch(/\? allow write two\.txt/);
  expect(fs.readFileSync(path.join(root, "two.txt"), "utf8")).toBe("two\n");
  await leave(second);

  // Another project (its own git root) is asked again.
  const other = path.join(root, "other");
  fs.mkdirSync(path.join(other, ".git"), { recursive: true });
  const third = TmuxSession.start(
    [process.execPath, bin(), "--session-dir", t.sandbox.sessions, "--base-url", fake.baseUrl, "--model", "fake-model"],
    { cwd: other, env: t.sandbox.env, scriptDir: t.sandbox.root },
  );
  try {
    await waitForPrompt(third);
    third.type("write three");
    await third.waitFor(/\? allow write three\.txt/);
    third.type("n", false);
    await third.waitFor(/wrote three/);
    expect(fs.existsSync(path.join(other, "three.txt"))).toBe(false);
    await leave(third);
  } finally {
    third.kill();
  }
});
