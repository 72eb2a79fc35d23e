/**
 * The official MCP conformance suite against `indusr mcp serve --http`, with
 * provider-host's conformance box mounted (conformance/run-server.mjs). Both
 * suite lines: 0.1.16 (2025 era) and 0.2.0-alpha.12 (2025 scenarios, and what
 * revision 2026-07-28 requires), each gated by its baseline; reasons in
 * conformance/server-baseline.md. npx fetches Node 22 and the suites (cached
 * after the first run), hence the generous timeouts.
 */
import { join } from "node:path";
import { spawn } from "node:child_process";

const RUNNER = join(__dirname, "..", "conformance", "run-server.mjs");

function runSuite(run: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [RUNNER, run], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, output }));
  });
}

it("passes what 2026-07-28 requires but the baseline, server-stateless with at least 24 checks", async () => {
  const { code, output } = await runSuite("modern");
  const stateless = /server-stateless: (\d+) passed/.exec(output);
  expect(Number(stateless?.[1])).toBeGreaterThanOrEqual(24);
  expect(output).toMatch(/caching: \d+ passed, 0 failed/);
  expect(output).toMatch(/http-header-validation: \d+ passed, 0 failed/);
  expect(code).toBe(0);
}, 900_000);

it("passes the 0.1.16 server scenarios but the baseline", async () => {
  const { code, output } = await runSuite("legacy");
  for (const scenario of [
    "server-initialize",
    "ping",
    "tools-list",
    "dns-rebinding-protection",
    "resources-read-text",
  ]) {
    expect(output).toMatch(new RegExp(`✓ ${scenario}: \\d+ passed, 0 failed`));
  }
  expect(code).toBe(0);
}, 600_000);

it("passes the 2025-era scenarios of 0.2.0-alpha.12 but the baseline", async () => {
  const { code } = await runSuite("legacy-0.2");
  expect(code).toBe(0);
}, 600_000);
