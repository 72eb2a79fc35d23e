/**
 * `task` as a user runs it: the built binary starts a real sub-agent, and the
 * scripted model server sees it as a second conversation with its own
 * briefing and only the read-only tools.
 */
import fs from "node:fs";
import path from "node:path";
import { callTool, lastToolResults, say } from "./fake-model/fake-model-server";
import { runAgent, startAgent } from "./support/agent-cli";
import { openAiModelArgs, useAgentTest } from "./support/agent-test";

jest.setTimeout(60_000);

const t = useAgentTest();
const modelArgs = openAiModelArgs;

test("a -p run whose model calls task gets a real sub-agent's answer, with a usage line", async () => {
  fs.writeFileSync(path.join(t.sandbox.cwd, "notes.txt"), "hello from the notes\nsecond line\n");
  const fake = await t.model([
    callTool("task", { objective: "Report the first line of notes.txt" }),
    callTool("read", { path: "notes.txt" }),
    (request) => say(`The first line is: ${/hello[^\n]*/.exec(lastToolResults(request)[0]?.text ?? "")?.[0]}`),
    (request) => say(`Sub-agent says: ${lastToolResults(request)[0]?.text.split("\n")[0]}`),
  ]);
  const r = await runAgent(["-p", "what does notes.txt start with?", ...modelArgs(fake)], t.sandbox);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe("Sub-agent says: The first line is: hello from the notes\n");

  const [main, sub, subAgain, mainAgain] = fake.requests;
  expect(fake.requests).toHaveLength(4);
  // The second conversation: its own briefing, the objective as its first message, read-only tools, no task.
  expect(main!.system).not.toContain("sub-agent of indusr");
  expect(sub!.system).toContain("You are a sub-agent of indusr");
  expect(sub!.messages).toHaveLength(1);
  expect(sub!.messages[0]!.text).toBe("Report the first line of notes.txt");
  const subTools = sub!.tools.map((t) => t.name);
  expect(subTools).toEqual(expect.arrayContaining(["read", "grep", "ls"]));
  for (const name of ["task", "write", "edit", "bash"]) expect(subTools).not.toContain(name);
  expect(subAgain!.system).toContain("You are a sub-agent of indusr");
  // Back in the parent: the answer plus a usage line, as the task result.
  const answer = lastToolResults(mainAgain!)[0]!.text;
  expect(answer).toMatch(
    /^The first line is: hello from the notes\n\n\[sub-agent: 2 turns · \d+ in \/ \d+ out tokens · transcript .+-task1\.jsonl\]$/,
  );
  // Compact progress on the terminal.
  expect(r.stderr).toContain("● task Report the first line of notes.txt");
  expect(r.stderr).toContain("↳ explore: read notes.txt");
});

test("a general sub-agent is judged by the gate as task, and its mutating calls by the same gate", async () => {
  const fake = await t.model([
    callTool("task", { objective: "Write out.txt", agent: "general" }),
    callTool("write", { path: "out.txt", content: "x\n" }),
    (request) => say(`write said: ${lastToolResults(request)[0]?.text.slice(0, 30)}`),
    (request) => say(lastToolResults(request)[0]?.text.split("\n")[0] ?? ""),
  ]);
  const r = await runAgent(["-p", "go", "--allow", "task", ...modelArgs(fake)], t.sandbox);
  expect(r.code).toBe(0);
  expect(fake.requests[1]!.tools.map((t) => t.name)).toContain("write");
  expect(r.stdout).toMatch(/^write said: Refused: `write`/);
  expect(fs.existsSync(path.join(t.sandbox.cwd, "out.txt"))).toBe(false);
});

test("Ctrl-C stops the sub-agent with its parent: its model request is abandoned and the run ends interrupted", async () => {
  const fake = await t.model([callTool("task", { objective: "think forever" }), { kind: "hang" }]);
  const running = startAgent(["-p", "go", ...modelArgs(fake)], t.sandbox);
  await fake.waitForRequests(2);
  expect(fake.requests[1]!.system).toContain("You are a sub-agent of indusr");
  running.child.kill("SIGINT");
  const done = await running.done;
  expect(done.code).toBe(130);
  expect(done.stderr).toMatch(/interrupted/);
  expect(fake.requests).toHaveLength(2);
});
