/**
 * Runs the built `indusr` as a subprocess with its own HOME, XDG config root
 * and working directory, the way a user would.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { exited, tracked } from "./children";

export const BIN = path.join(__dirname, "..", "..", "dist", "indusr.js");

export interface Sandbox {
  readonly root: string;
  readonly home: string;
  readonly xdg: string;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  cleanup(): void;
}

export function makeSandbox(): Sandbox {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "indusr-test-"));
  fs.chmodSync(root, 0o755); // readable by an unprivileged user (see runCli's asUser)
  const home = path.join(root, "home");
  const xdg = path.join(root, "xdg");
  const cwd = path.join(root, "project");
  for (const dir of [home, xdg, cwd]) fs.mkdirSync(dir, { recursive: true });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: xdg,
    NO_COLOR: "1",
    LANG: "C.UTF-8",
    // `mcp serve` waits for every mounted server, as tests that list a server's tools at once expect even
    // under load; serve-boot-wait.test.ts removes it to test the 3 s default.
    INDUSR_BOOT_WAIT_MS: "120000",
  };
  return {
    root,
    home,
    xdg,
    cwd,
    env,
    cleanup: () => {
      // Restore write permission on anything a test locked, then remove.
      try {
        for (const dir of [xdg, path.join(cwd, ".indusvx")]) if (fs.existsSync(dir)) fs.chmodSync(dir, 0o755);
      } catch {
        /* best effort */
      }
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export async function runCli(
  args: readonly string[],
  options: {
    sandbox: Sandbox;
    cwd?: string;
    input?: string;
    env?: NodeJS.ProcessEnv;
    asUser?: boolean;
  },
): Promise<CliResult> {
  // `asUser`: when the tests run as root, drop to nobody so file permissions apply.
  const argv = [process.execPath, BIN, ...args];
  if (options.asUser && process.getuid?.() === 0)
    argv.unshift("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups");
  const child = tracked(
    spawn(argv[0]!, argv.slice(1), {
      cwd: options.cwd ?? options.sandbox.cwd,
      env: { ...options.sandbox.env, ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    }),
  );
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdin.end(options.input ?? "");
  // No deadline of its own: Jest's per-test ceiling is the guard (see children.ts).
  const { code } = await exited(
    child,
    `indusr ${args.join(" ")} to exit`,
    () => `stdout: ${stdout.slice(-2_000)}\nstderr: ${stderr.slice(-2_000)}`,
  );
  return { code, stdout, stderr };
}
