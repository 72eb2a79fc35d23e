import { join } from "node:path";
import { PACKAGE_DIR } from "./support/processes";
import { run } from "./support/run";

// The official MCP conformance suite (server scenarios), run against the built
// host by conformance/run.mjs. It fetches Node 22 and the suite through npx
// (cached after the first run), hence the generous timeouts.
const RUNNER = join(PACKAGE_DIR, "conformance", "run.mjs");
const REQUIRED = ["server-initialize", "ping", "tools-list", "logging-set-level", "dns-rebinding-protection"];

// The active suite and the pending scenario share one runner, one host and one suite install (npx costs
// seconds of CPU each time it starts); each run's exit code is printed after its output.
let both: { active: string; pending: string };
beforeAll(async () => {
  const result = await run(process.execPath, [RUNNER, "--and-pending"], { timeoutMs: 540_000 });
  const output = result.stdout + result.stderr;
  const split = output.search(/^exit \d+: active$/m);
  both = split < 0 ? { active: output, pending: "" } : { active: output.slice(0, split), pending: output.slice(split) };
}, 600_000);

it("passes the active server scenarios, failing only those in the baseline", () => {
  for (const scenario of REQUIRED) expect(both.active).toMatch(new RegExp(`✓ ${scenario}: \\d+ passed, 0 failed`));
  expect(both.active).toContain("Baseline check passed");
  expect(both.pending).toMatch(/^exit 0: active$/m);
});

it("passes the pending JSON Schema 2020-12 scenario", () => {
  expect(both.pending).toContain("Passed: 4/4, 0 failed, 0 warnings");
  expect(both.pending).toMatch(/^exit 0: pending$/m);
});

it("passes what protocol revision 2026-07-28 requires, failing only those in the baseline", async () => {
  const result = await run(process.execPath, [RUNNER, "--modern"], { timeoutMs: 840_000 });
  const output = result.stdout + result.stderr;
  const stateless = /server-stateless: (\d+) passed/.exec(output);
  expect(Number(stateless?.[1])).toBeGreaterThanOrEqual(24);
  expect(output).toMatch(/caching: \d+ passed, 0 failed/);
  expect(output).toMatch(/sep-2164-resource-not-found: \d+ passed, 0 failed/);
  expect(result.code).toBe(0);
}, 900_000);
