/**
 * A server that answers a call with a JSON-RPC error rather than a result:
 * the runner still resolves (an `isError` outcome a model can read), and the
 * server's error rides along as `rpcError` so a gateway can answer its own
 * client with it. The server is the both-eras conformance fixture, which in
 * the 2026-07-28 era refuses a tool needing sampling with -32021 when the
 * call's client declared none (as this bridge's host does not).
 */
import { mountProtocolBridge, type MountedProtocolBridge } from "@indus/fleet";
import { fixture } from "@indus/testkit";

jest.setTimeout(60_000);

let mounted: MountedProtocolBridge;
beforeAll(async () => {
  mounted = await mountProtocolBridge({ servers: [fixture("both", "conformance-2026.mjs")] }, { names: "as-is" });
});
afterAll(() => mounted.fleet.tearDown());

it("keeps the server's JSON-RPC error beside the isError outcome", async () => {
  const outcome = await mounted.box.runner.run({ id: "1", name: "test_missing_capability", input: {} });
  expect(outcome.isError).toBe(true);
  expect(outcome.rpcError).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
  expect(outcome.content[0]).toMatchObject({ type: "text", text: expect.stringContaining("capabilit") });
});

it("leaves rpcError off a result the server sent", async () => {
  const outcome = await mounted.box.runner.run({ id: "2", name: "test_error_handling", input: {} });
  expect(outcome.isError).toBe(true);
  expect(outcome.rpcError).toBeUndefined();
});
