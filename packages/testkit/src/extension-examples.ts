/**
 * The extension example servers of `examples/extensions/` (the ones a user
 * runs with plain node), started the way the README says: over stdio as a
 * server config, or over Streamable HTTP on 127.0.0.1 on a free port. Every
 * line a server logs (`--log`) can be read back, so a test sees what the
 * server did.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const EXTENSION_EXAMPLES = path.join(__dirname, "..", "..", "..", "examples", "extensions");

export type ExtensionExample = "skills-server" | "apps-server" | "tasks-server";

/** A fresh log file for one example server (removed with the temp dir by the OS). */
export function exampleLogFile(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), "indus-example-")), "server.log");
}

/** The lines the server logged so far (empty before its first line). */
export function exampleLog(file: string): string[] {
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
}

/** A stdio server config running the example (`args` after `--stdio`). */
export function exampleStdio(
  example: ExtensionExample,
  args: readonly string[] = [],
): { command: string; args: string[] } {
  return { command: process.execPath, args: [path.join(EXTENSION_EXAMPLES, `${example}.mjs`), "--stdio", ...args] };
}

export interface ExampleHttp {
  readonly url: string;
  stop(): Promise<void>;
}

/** The example over Streamable HTTP on 127.0.0.1 (a free port), once it says it listens. */
export async function startExampleHttp(example: ExtensionExample, args: readonly string[] = []): Promise<ExampleHttp> {
  const script = path.join(EXTENSION_EXAMPLES, `${example}.mjs`);
  const child = spawn(process.execPath, [script, "--port", "0", ...args], { stdio: ["ignore", "ignore", "pipe"] });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`${example} did not start: ${seen}`)), 60_000);
    child.stderr.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /listening (?:on|at) (\S+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${example} exited (${code}): ${seen}`));
    });
  });
  child.stderr.resume();
  return {
    url,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
