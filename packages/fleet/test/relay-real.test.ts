/**
 * The catalog's relay against real servers: two copies of the conformance
 * reference fixture (a v2 `McpServer`) over stdio, prefixed, so every URI and
 * template they share is published per server as `indus://<server>/...` and
 * must be mapped to the server's own on the way in and back on the way out.
 */
import type { JsonObject, ServerLogEntry } from "@indus/contract";
import { gatewayUri, mountProtocolBridge, type MountedProtocolBridge } from "@indus/fleet";
import { fixture, waitFor } from "@indus/testkit";

jest.setTimeout(60_000);

let mounted: MountedProtocolBridge;
beforeAll(async () => {
  mounted = await mountProtocolBridge({
    servers: [fixture("a", "conformance-reference.mjs"), fixture("b", "conformance-reference.mjs")],
  });
  // Owners are learned from listings, as a gateway client's lists teach them.
  await Promise.all([mounted.box.catalog.listResources(), mounted.box.catalog.listResourceTemplates()]);
});
afterAll(() => mounted.fleet.tearDown());

const valuesOf = (result: JsonObject) => (result["completion"] as { values: string[] }).values;

it("completes a prompt argument and a template variable on the server that owns them", async () => {
  const prompt = await mounted.box.catalog.complete({
    ref: { type: "ref/prompt", name: "b__test_prompt_with_arguments" },
    argument: { name: "arg1", value: "pa" },
  });
  expect(valuesOf(prompt)).toEqual(["paris", "park", "party"]);
  const template = await mounted.box.catalog.complete({
    ref: { type: "ref/resource", uri: gatewayUri("a", "test://template/{id}/data") },
    argument: { name: "id", value: "4" },
  });
  expect(valuesOf(template)).toEqual(["456"]);
});

it("subscribes upstream and reports the server's update under the published URI", async () => {
  const published = gatewayUri("a", "test://watched-resource");
  const updates: string[] = [];
  const off = mounted.box.catalog.onResourceUpdated((uri) => updates.push(uri));
  await mounted.box.catalog.subscribe(published);
  const touched = await mounted.box.runner.run({ id: "t", name: "a__test_touch_watched_resource", input: {} });
  expect(touched.content).toEqual([{ type: "text", text: "notified 1 subscriber(s)" }]);
  await waitFor(`the update of ${published} relayed`, () => updates.includes(published));
  await mounted.box.catalog.unsubscribe(published);
  const after = await mounted.box.runner.run({ id: "u", name: "a__test_touch_watched_resource", input: {} });
  expect(after.content).toEqual([{ type: "text", text: "notified 0 subscriber(s)" }]);
  off();
});

it("sets the log level on both servers and tags each server's logs with its id", async () => {
  const entries: ServerLogEntry[] = [];
  const off = mounted.box.catalog.onLog((entry) => entries.push(entry));
  await mounted.box.catalog.setLogLevel("debug");
  await mounted.box.runner.run({ id: "l", name: "b__test_tool_with_logging", input: {} });
  await waitFor("three log entries relayed", () => entries.length >= 3);
  expect(entries.map((entry) => entry.server)).toEqual(["b", "b", "b"]);
  expect(entries[0]!.params).toMatchObject({ level: "info", data: "Tool execution started" });
  off();
});
