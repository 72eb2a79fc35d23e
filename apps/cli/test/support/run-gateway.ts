/**
 * conformance/run-gateway.mjs as a child process: its exit code, its output,
 * and the per-target tallies of its `SUMMARY {json}` line.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";

const RUNNER = join(__dirname, "..", "..", "conformance", "run-gateway.mjs");

export type Summary = Record<string, { passed: number; of: number }>;

export function runGateway(
  args: readonly string[],
): Promise<{ code: number | null; output: string; summary: Summary }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [RUNNER, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) => {
      const line = /^SUMMARY (.*)$/m.exec(output);
      resolve({ code, output, summary: JSON.parse(line?.[1] ?? "{}") as Summary });
    });
  });
}
