/**
 * Does `indusr mcp serve` carry the Tasks extension (SEP-2663)?
 * conformance/run-gateway.mjs runs the 10 `tasks-*` server scenarios of
 * conformance 0.2.0-alpha.12 (`--spec-version 2026-07-28 --force`, one by one)
 * against examples/extensions/tasks-server.mjs directly and through the
 * gateway: stdio mount, URL mount, and a `--stateless` gateway (its task ids
 * are sealed, it keeps no task state). Fails on any scenario that passes
 * directly but not through the gateway unless conformance/gateway-baseline.json
 * gives a reason, and on a baseline entry that passes now (--strict). npx
 * fetches Node 22 and the suite (cached after the first run); forty suite
 * processes, hence the generous timeout.
 */
import { runGateway } from "./support/run-gateway";

it("passes every tasks-* scenario through the gateway (stdio, URL, --stateless) as it does directly", async () => {
  const { code, output, summary } = await runGateway(["--run", "tasks", "--strict"]);
  // The example server is the yardstick: it passes all ten directly.
  expect(summary["tasks tasks:direct"]).toEqual({ passed: 10, of: 10 });
  for (const mode of ["gateway-stdio", "gateway-url", "gateway-stateless"]) {
    expect(summary[`tasks tasks:${mode}`]).toEqual({ passed: 10, of: 10 });
  }
  expect(output).not.toMatch(/^REGRESSION/m);
  expect(code).toBe(0);
}, 1_500_000);
