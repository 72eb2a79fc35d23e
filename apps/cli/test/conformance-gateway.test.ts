/**
 * Does `indusr mcp serve` carry all of MCP? conformance/run-gateway.mjs runs
 * the 0.1.16 server scenarios against the reference fixture and
 * server-everything, directly and through the gateway (stdio and URL mounts),
 * and fails on any scenario that passes directly but not through the gateway
 * unless conformance/gateway-baseline.json gives a reason, and on a baseline
 * entry that passes now (--strict: the baseline only shrinks). npx fetches Node 22
 * and the suite (cached after the first run), hence the generous timeout.
 */
import { runGateway } from "./support/run-gateway";

it("passes through the gateway every server scenario that passes directly, but the baseline", async () => {
  const { code, output, summary } = await runGateway(["--strict"]);
  // The fixture is the yardstick: if it stops passing everything directly, the comparison means nothing.
  expect(summary["reference:direct"]).toEqual({ passed: 32, of: 32 });
  // Everything that passes against it directly passes through the gateway, over either mount.
  expect(summary["reference:gateway-stdio"]).toEqual({ passed: 32, of: 32 });
  expect(summary["reference:gateway-url"]).toEqual({ passed: 32, of: 32 });
  for (const target of ["everything:direct", "everything:gateway-stdio", "everything:gateway-url"]) {
    expect(summary[target]?.of).toBe(32);
  }
  expect(output).not.toMatch(/^REGRESSION/m);
  expect(code).toBe(0);
}, 600_000);
