/**
 * Runs the built `indusr` as a subprocess in a sandbox of its own (HOME,
 * XDG config root, project folder, session folder), with MCP configs that
 * mount real servers from the dev dependencies.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { waitFor } from "@indus/testkit";
import { exited, tracked } from "../../support/children";

export const APP = path.join(__dirname, "..", "..", "..");
const DIST = path.join(APP, "dist");
let snapshot: string | undefined;
let snapshotDir: string | undefined;

/** Remove the private copy of `dist/` (call from `afterAll`). */
export function removeBinSnapshot(): void {
  if (snapshotDir) fs.rmSync(snapshotDir, { recursive: true, force: true });
  snapshot = undefined;
  snapshotDir = undefined;
}

/**
 * The binary under test: a private copy of `dist/` taken once per test file,
 * so a rebuild of `dist/` while tests run (tsup cleans it first) cannot pull
 * chunks out from under a running agent. `INDUSR_TEST_BIN` overrides it.
 */
export function bin(): string {
  if (process.env.INDUSR_TEST_BIN) return process.env.INDUSR_TEST_BIN;
  if (snapshot) return snapshot;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "indusr-bin-"));
  for (let attempt = 0; ; attempt += 1) {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
      fs.cpSync(DIST, dir, { recursive: true });
      const candidate = path.join(dir, "indusr.js");
      execFileSync(process.execPath, [candidate, "--version"], { stdio: "pipe", timeout: 30_000 });
      snapshot = candidate;
      snapshotDir = dir;
      return candidate;
    } catch (error) {
      if (attempt >= 30) {
        fs.rmSync(dir, { recursive: true, force: true });
        throw error;
      }
      execFileSync("sleep", ["1"]); // dist is being rebuilt; try again
    }
  }
}
export const EVERYTHING = require.resolve("@modelcontextprotocol/server-everything/dist/index.js", { paths: [APP] });
export const CRASHY = path.join(__dirname, "..", "fixtures", "crashy-server.mjs");
export const TINY = path.join(__dirname, "..", "fixtures", "tiny-server.mjs");
export const ASKING = path.join(__dirname, "..", "fixtures", "asking-server.mjs");

export interface AgentSandbox {
  readonly root: string;
  readonly home: string;
  readonly cwd: string;
  readonly sessions: string;
  readonly env: NodeJS.ProcessEnv;
  /** Write an MCP config (Claude-style `mcpServers`) and return its path. */
  mcpConfig(servers: Record<string, unknown>, name?: string): string;
  cleanup(): void;
}

export function agentSandbox(): AgentSandbox {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "indusr-agent-"));
  const home = path.join(root, "home");
  const cwd = path.join(root, "project");
  const sessions = path.join(root, "sessions");
  for (const dir of [home, cwd, path.join(root, "xdg")]) fs.mkdirSync(dir, { recursive: true });
  return {
    root,
    home,
    cwd,
    sessions,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      XDG_CONFIG_HOME: path.join(root, "xdg"),
      NO_COLOR: "1",
      LANG: "C.UTF-8",
    },
    mcpConfig(servers, name = "mcp.json") {
      const file = path.join(root, name);
      fs.writeFileSync(file, JSON.stringify({ mcpServers: servers }, null, 2));
      return file;
    },
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

export const everythingServer = { command: process.execPath, args: [EVERYTHING, "stdio"] };
export const crashyServer = { command: process.execPath, args: [CRASHY] };
/** A server that asks the client a question a second after `ask_soon` returns (outside any call). */
export const askingServer = { command: process.execPath, args: [ASKING] };
/** A small server named `name` with tools ping, lookup and store. */
export const tinyServer = (name: string) => ({ command: process.execPath, args: [TINY, name] });

export interface Running {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout+stderr match (no deadline of its own: the test's ceiling). */
  waitForOutput(pattern: RegExp): Promise<void>;
  readonly done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/** The agent as a child process, killed if still running when its test ends (children.ts). */
export function startAgent(args: readonly string[], sandbox: AgentSandbox, env: NodeJS.ProcessEnv = {}): Running {
  const child = tracked(
    spawn(process.execPath, [bin(), "--session-dir", sandbox.sessions, ...args], {
      cwd: sandbox.cwd,
      env: { ...sandbox.env, ...env },
      stdio: ["pipe", "pipe", "pipe"],
    }),
  );
  let out = "";
  let err = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (err += d.toString()));
  child.stdin.end();
  const output = () => `stdout:\n${out.slice(-2_000)}\nstderr:\n${err.slice(-2_000)}`;
  let done: Running["done"] | undefined;
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    waitForOutput: async (pattern) => {
      await waitFor(`${pattern} in the agent's output`, () => {
        if (pattern.test(out) || pattern.test(err)) return true;
        throw new Error(output());
      });
    },
    // Waited for only when a test asks: a test that stops the agent its own way leaves no pending wait.
    get done() {
      return (done ??= exited(child, `indusr ${args.join(" ")} to exit`, output).then(({ code, signal }) => ({
        code,
        signal,
        stdout: out,
        stderr: err,
      })));
    },
  };
}

/** Runs the agent to its exit; Jest's per-test ceiling is the only deadline. */
export async function runAgent(args: readonly string[], sandbox: AgentSandbox, env: NodeJS.ProcessEnv = {}) {
  return startAgent(args, sandbox, env).done;
}

/** True while a process with this pid runs (a zombie awaiting its reaper counts as gone). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** Parse stream-json output into events. */
export function events(stdout: string): Record<string, unknown>[] {
  return stdout
    .split("\n")
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
