/**
 * Tasks (the 2026-07-28 extension) in the interactive session, on a real
 * terminal (tmux) with the scripted model and examples/extensions/tasks-server.mjs
 * mounted over stdio: a call its server runs as a task that outlasts the
 * background threshold goes to the background (the turn ends), `/tasks`
 * shows it, its end is announced and its result reaches the model with the
 * next prompt; a task that asks for input gets the user's answer through the
 * terminal form.
 */
import fs from "node:fs";
import path from "node:path";
import { callTool, lastToolResults, say } from "./fake-model/fake-model-server";
import { useAgentTest } from "./support/agent-test";

jest.setTimeout(180_000);

const TASKS_SERVER = path.join(__dirname, "..", "..", "..", "..", "examples", "extensions", "tasks-server.mjs");

const t = useAgentTest();

/** The example tasks server; a `slow_compute` running when `finish` appears answers at its next second. */
function jobsServer(log: string, finish = path.join(path.dirname(log), "finish")) {
  return { command: process.execPath, args: [TASKS_SERVER, "--stdio", "--log", log, "--finish-file", finish] };
}

test("a long task call goes to the background, /tasks shows it, and its result reaches the next prompt", async () => {
  const log = path.join(t.sandbox.root, "tasks.log");
  const fake = await t.model([
    callTool("jobs__slow_compute", { seconds: 3_600, label: "report" }),
    (request) => say(`told: ${lastToolResults(request)[0]!.text.split(".")[0]}`),
    (request) => say(`heard: ${request.messages.at(-1)?.text.includes("computed report in 3600 s") ? "yes" : "no"}`),
  ]);
  // A task moves to the background after half a second (two minutes by default).
  Object.assign(t.sandbox.env, { INDUSR_TASK_BACKGROUND_MS: "500" });
  const mcp = t.sandbox.mcpConfig({ jobs: jobsServer(log) });
  const tmux = t.terminal(["--mcp", mcp, "--allow", "jobs__*"], fake);
  await tmux.waitFor(/jobs ✓/);
  await tmux.waitFor(/^›\s*$/m);

  tmux.type("compute the report");
  await tmux.waitFor(/◆ task 1 jobs__slow_compute runs in the background \(task \S+\) · \/tasks/);
  await tmux.waitFor(/told: This call runs in the background as task/);
  const taskId = /created (\S+) slow_compute/.exec(fs.readFileSync(log, "utf8"))?.[1];
  expect(taskId).toBeDefined();

  // The task is still running (the server has not finished it): /tasks lists it.
  await tmux.waitFor(/^›\s*$/m);
  tmux.type("/tasks");
  const listed = await tmux.waitFor(/\/tasks cancel <n>/);
  expect(listed).toMatch(new RegExp(`1 +jobs__slow_compute +working.*task ${taskId}`));
  expect(fs.readFileSync(log, "utf8")).not.toContain(`completed ${taskId}`);

  // It ends (when the test says so) while the user is at the prompt: announced, and given to the model with the next prompt.
  fs.writeFileSync(path.join(t.sandbox.root, "finish"), "");
  await tmux.waitFor(/◆ task 1 jobs__slow_compute done: computed report in 3600 s/);
  tmux.type("did it finish?");
  await tmux.waitFor(/heard: yes/);
  expect(fake.requests.at(-1)!.messages.at(-1)!.text).toMatch(
    /Background task 1 \(jobs__slow_compute, task \S+ on jobs\) completed/,
  );
});

test("a task that asks for input gets the user's answer through the terminal form", async () => {
  const log = path.join(t.sandbox.root, "tasks.log");
  const fake = await t.model([
    callTool("jobs__confirm_delete", { filename: "notes.txt" }),
    (request) => say(`result: ${lastToolResults(request)[0]!.text}`),
  ]);
  const mcp = t.sandbox.mcpConfig({ jobs: jobsServer(log) });
  const tmux = t.terminal(["--mcp", mcp, "--allow", "jobs__*"], fake);
  await tmux.waitFor(/jobs ✓/);
  await tmux.waitFor(/^›\s*$/m);

  tmux.type("delete notes.txt");
  await tmux.waitFor(/Delete notes\.txt\?/);
  await tmux.waitFor(/fill in the form\?/);
  tmux.type("y");
  await tmux.waitFor(/\? confirm \(y\/n\).*›/);
  tmux.type("y");
  await tmux.waitFor(/send to jobs\? \[a\]ccept/);
  tmux.type("a");
  await tmux.waitFor(/result: deleted notes\.txt/);
  expect(fs.readFileSync(log, "utf8")).toMatch(/update \S+ confirm-/);
});
