/**
 * `indusr call` of a tool its server runs as a task (the Tasks extension,
 * 2026-07-28): the task's id and each status it moves through are shown on
 * stderr while it runs, its result on stdout; SIGINT cancels the task on the
 * server (`tasks/cancel`, seen in the server's log) before indusr exits 130.
 * The server is examples/extensions/tasks-server.mjs, mounted over stdio and
 * by URL (a real child process, real HTTP on 127.0.0.1, a real signal).
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { waitFor } from "@indus/testkit";
import { BIN, makeSandbox, runCli, type Sandbox } from "./support/run-cli";
import { writeConfig } from "./support/servers";

jest.setTimeout(60_000);

const TASKS_SERVER = path.join(__dirname, "..", "..", "..", "examples", "extensions", "tasks-server.mjs");

let sandbox: Sandbox;
let log: string;
let httpServer: ChildProcess | undefined;
beforeEach(() => {
  sandbox = makeSandbox();
  log = path.join(sandbox.root, "tasks.log");
});
afterEach(async () => {
  if (httpServer !== undefined && httpServer.exitCode === null) {
    const exited = new Promise((resolve) => httpServer!.once("exit", resolve));
    httpServer.kill("SIGTERM");
    await exited;
  }
  httpServer = undefined;
  sandbox.cleanup();
});

/** The server's log: one line per task event (`created <id> <tool>`, `cancel <id>`, ...). */
function events(): string {
  return fs.existsSync(log) ? fs.readFileSync(log, "utf8") : "";
}

/** Waits for `what` (no deadline but Jest's); a hang reports the server log as last seen. */
async function until(check: () => boolean, what: string): Promise<void> {
  await waitFor(what, () => {
    if (!check()) throw new Error(`server log:\n${events()}`);
    return true;
  });
}

function stdioRow() {
  return { command: process.execPath, args: [TASKS_SERVER, "--stdio", "--log", log] };
}

async function urlRow(): Promise<{ url: string }> {
  const child = spawn(process.execPath, [TASKS_SERVER, "--port", "0", "--log", log], { stdio: "pipe" });
  httpServer = child;
  const url = await new Promise<string>((resolve, reject) => {
    let seen = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      seen += chunk;
      const match = /listening at (http:\/\/\S+)/.exec(seen);
      if (match?.[1]) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`tasks-server exited ${code}: ${seen}`)));
  });
  return { url };
}

it("shows the task's id and statuses while it runs, then prints its result", async () => {
  writeConfig(path.join(sandbox.cwd, ".indusvx"), { jobs: stdioRow() });
  const result = await runCli(["call", "jobs__slow_compute", '{"seconds":2,"label":"report"}'], { sandbox });
  expect(result.stdout).toBe("computed report in 2 s\n");
  const taskId = /created (\S+) slow_compute/.exec(events())?.[1];
  expect(taskId).toBeDefined();
  expect(result.stderr).toContain(`indusr: task ${taskId} working\n`);
  expect(result.stderr).toContain(`indusr: task ${taskId} working: step 1 of 2\n`);
  expect(result.stderr).toContain(`indusr: task ${taskId} completed`);
  expect(result.code).toBe(0);
});

describe.each([
  ["stdio", async () => stdioRow()],
  ["URL", urlRow],
] as const)("SIGINT during a task (%s mount)", (_mount, row) => {
  it("sends tasks/cancel, seen by the server, and exits 130", async () => {
    writeConfig(path.join(sandbox.cwd, ".indusvx"), { jobs: await row() });
    const child = spawn(process.execPath, [BIN, "call", "jobs__slow_compute", '{"seconds":600}'], {
      cwd: sandbox.cwd,
      env: sandbox.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.stdout.resume();
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    // Wait until indusr follows the task (it showed it), then interrupt it as Ctrl-C would.
    await until(() => /indusr: task \S+ working/.test(stderr), "the task shown by indusr");
    const taskId = /created (\S+) slow_compute/.exec(events())?.[1];
    child.kill("SIGINT");
    expect(await exited).toBe(130);
    await until(() => events().includes(`cancel ${taskId}`), "tasks/cancel at the server");
    expect(events()).toContain(`cancel ${taskId}`);
  });
});
