/**
 * One teardown path: SIGINT, SIGTERM and SIGHUP during start-up, during a call
 * and while serving end indusr with 128+signal, and nothing of the session is
 * left, not even a server that ignores stdin EOF and SIGTERM, nor its
 * grandchild: neither ever exits by itself, so their ending at all is indusr's
 * doing (a hang is caught by Jest's ceiling, naming who is still alive). Real
 * processes, real signals.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { waitFor } from "@indus/testkit";
import { BIN, makeSandbox, type Sandbox } from "./support/run-cli";
import { writeConfig } from "./support/servers";

jest.setTimeout(60_000);

const STUBBORN = path.join(__dirname, "fixtures", "stubborn-server.mjs");
const SIGNAL_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

let sandbox: Sandbox;
/** The session's server pids: a test that fails leaves none of them running. */
let watched: number[] = [];
let indusr: ChildProcess | undefined;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => {
  if (indusr?.exitCode === null && indusr.signalCode === null) indusr.kill("SIGKILL");
  for (const pid of watched.filter(alive)) process.kill(pid, "SIGKILL");
  watched = [];
  indusr = undefined;
  sandbox.cleanup();
});

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

function startIndusr(args: readonly string[]): {
  child: ChildProcess;
  stderr: () => string;
  stdout: () => string;
} {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: sandbox.cwd,
    env: sandbox.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  let stdout = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  return { child, stderr: () => stderr, stdout: () => stdout };
}

/** The gateway is serving once it answers a client's initialize on its stdin. */
async function serving(run: ReturnType<typeof startIndusr>): Promise<void> {
  const params = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "signals", version: "1" } };
  run.child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params })}\n`);
  await waitFor("the gateway's answer to initialize on stdout", () => run.stdout().includes('"id":1'));
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
  indusr = run.child;
  const reached =
    phase === "start-up"
      ? marker(name, "initialize")
      : phase === "call"
        ? marker(name, "called")
        : marker(name, "listed");
  await waitFor(`${name} reached ${phase}`, reached);
  if (phase === "serving") await serving(run);
  const pids = [...sessionPids(name), ...sessionPids("polite")];
  watched = pids;
  expect(pids.length).toBeGreaterThanOrEqual(2);
  process.kill(run.child.pid!, signal);
  const code = await waitFor(`indusr's exit after ${signal}`, () => run.child.exitCode ?? run.child.signalCode);
  await waitFor(`the session's servers gone (pids ${pids.join(" ")})`, () => pids.every((pid) => !alive(pid)));
  expect({ phase, signal, code }).toEqual({ phase, signal, code: SIGNAL_CODES[signal] });
}

describe.each(["SIGINT", "SIGTERM", "SIGHUP"] as const)("%s", (signal) => {
  it.each(["start-up", "call", "serving"] as const)("during %s: exit 128+signal, nothing left", (phase) =>
    signalDuring(phase, signal),
  );
});
