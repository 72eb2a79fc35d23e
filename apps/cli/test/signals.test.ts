/**
 * One teardown path: SIGINT, SIGTERM and SIGHUP during start-up, during a call
 * and while serving end indusr with 128+signal, and within 3 s nothing of the
 * session is left, not even a server that ignores stdin EOF and SIGTERM, nor
 * its grandchild. Real processes, real signals.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { BIN, makeSandbox, type Sandbox } from "./support/run-cli";
import { writeConfig } from "./support/servers";

jest.setTimeout(60_000);

const STUBBORN = path.join(__dirname, "fixtures", "stubborn-server.mjs");
const SIGNAL_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

function stubbornRow(name: string, extra: readonly string[] = []) {
  return { command: process.execPath, args: [STUBBORN, `dir=${sandbox.root}`, `name=${name}`, ...extra] };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie is dead for our purposes (init reaps it).
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}

function startIndusr(args: readonly string[]): {
  child: ChildProcess;
  exited: Promise<number | null>;
  stderr: () => string;
} {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: sandbox.cwd,
    env: sandbox.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdout.resume();
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, exited, stderr: () => stderr };
}

function sessionPids(name: string): number[] {
  const file = path.join(sandbox.root, `${name}.pids`);
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim().split(" ").map(Number) : [];
}

const marker = (name: string, event: string) => () => fs.existsSync(path.join(sandbox.root, `${name}.${event}`));

type Phase = "start-up" | "call" | "serving";

async function signalDuring(phase: Phase, signal: keyof typeof SIGNAL_CODES): Promise<void> {
  const name = "stubborn";
  const polite = { command: process.execPath, args: [STUBBORN, `dir=${sandbox.root}`, "name=polite", "quiet-exit=1"] };
  const servers =
    phase === "start-up"
      ? { [name]: stubbornRow(name, ["init-delay=20000"]), polite }
      : { [name]: stubbornRow(name), polite };
  writeConfig(path.join(sandbox.cwd, ".indusvx"), servers);
  const args =
    phase === "start-up"
      ? ["mcp", "status"]
      : phase === "call"
        ? ["call", `${name}__hang`]
        : ["mcp", "serve", "--stdio"];
  const run = startIndusr(args);
  const reached =
    phase === "start-up"
      ? marker(name, "initialize")
      : phase === "call"
        ? marker(name, "called")
        : marker(name, "listed");
  expect(await until(reached, 20_000)).toBe(true);
  if (phase === "serving") await new Promise((resolve) => setTimeout(resolve, 200));
  const pids = [...sessionPids(name), ...sessionPids("polite")];
  expect(pids.length).toBeGreaterThanOrEqual(2);
  const sent = Date.now();
  process.kill(run.child.pid!, signal);
  const code = await run.exited;
  const gone = await until(() => [run.child.pid!, ...pids].every((pid) => !alive(pid)), 3_000 - (Date.now() - sent));
  const leftovers = [run.child.pid!, ...pids].filter(alive);
  for (const pid of leftovers) process.kill(pid, "SIGKILL");
  expect({ phase, signal, code, leftovers, within3s: gone }).toEqual({
    phase,
    signal,
    code: SIGNAL_CODES[signal],
    leftovers: [],
    within3s: true,
  });
}

describe.each(["SIGINT", "SIGTERM", "SIGHUP"] as const)("%s", (signal) => {
  it.each(["start-up", "call", "serving"] as const)("during %s: exit 128+signal, nothing left after 3 s", (phase) =>
    signalDuring(phase, signal),
  );
});
