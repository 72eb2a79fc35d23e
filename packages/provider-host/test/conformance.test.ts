import { join } from "node:path";
import { PACKAGE_DIR } from "./support/processes";
import { run } from "./support/run";

// The official MCP conformance suite (server scenarios), run against the built
// host by conformance/run.mjs. It fetches Node 22 and the suite through npx
// (cached after the first run), hence the generous timeouts.
const RUNNER = join(PACKAGE_DIR, "conformance", "run.mjs");
const REQUIRED = ["server-initialize", "ping", "tools-list", "logging-set-level", "dns-rebinding-protection"];

it("passes the active server scenarios, failing only those in the baseline", async () => {
  const result = await run(process.execPath, [RUNNER], { timeoutMs: 540_000 });
  const output = result.stdout + result.stderr;
  for (const scenario of REQUIRED) expect(output).toMatch(new RegExp(`✓ ${scenario}: \\d+ passed, 0 failed`));
  expect(output).toContain("Baseline check passed");
  expect(result.code).toBe(0);
}, 600_000);

it("passes the pending JSON Schema 2020-12 scenario", async () => {
  const result = await run(process.execPath, [RUNNER, "--pending"], { timeoutMs: 240_000 });
  expect(result.stdout + result.stderr).toContain("Passed: 4/4, 0 failed, 0 warnings");
  expect(result.code).toBe(0);
}, 300_000);

it("passes what protocol revision 2026-07-28 requires, failing only those in the baseline", async () => {
  const result = await run(process.execPath, [RUNNER, "--modern"], { timeoutMs: 840_000 });
  const output = result.stdout + result.stderr;
  const stateless = /server-stateless: (\d+) passed/.exec(output);
  expect(Number(stateless?.[1])).toBeGreaterThanOrEqual(24);
  expect(output).toMatch(/caching: \d+ passed, 0 failed/);
  expect(output).toMatch(/sep-2164-resource-not-found: \d+ passed, 0 failed/);
  expect(result.code).toBe(0);
}, 900_000);
