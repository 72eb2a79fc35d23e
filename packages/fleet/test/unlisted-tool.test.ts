import type { ClientHostHooks } from "@indus/contract";
import { EndpointFleet, MountedToolBox } from "@indus/fleet";
import { fakeEndpoints, fakeServer } from "@indus/fleet/testing";

// A gateway standing in for one server passes a tool name it does not list
// on to that server, so the caller gets the server's own answer. With
// prefixed names, or several servers, there is no such server.

async function mount(ids: readonly string[], names?: "as-is") {
  const fakes = fakeEndpoints(Object.fromEntries(ids.map((id) => [id, { tools: [{ name: "echo" }] }])));
  const fleet = new EndpointFleet({ createEndpoint: fakes.createEndpoint }, (endpoint) => endpoint.listTools());
  const box = new MountedToolBox(fleet, names ? { names } : {});
  await fleet.start({ servers: ids.map((id) => fakeServer(id)) });
  await box.settled();
  return { fakes, catalog: box.catalog };
}

it("runs an unlisted name on the sole server under as-is names, with the call's relayTo", async () => {
  const { fakes, catalog } = await mount(["only"], "as-is");
  const runner = catalog.unlistedTool("missing");
  expect(runner).toBeDefined();
  const relayTo: ClientHostHooks = { listRoots: () => Promise.resolve([]) };
  const outcome = await runner!.run({ id: "c1", name: "missing", input: { a: 1 } }, { relayTo });
  // The fake answers an unknown tool with a tool-error fault: the caller sees the server's refusal.
  expect(outcome).toMatchObject({ callId: "c1", isError: true });
  expect(JSON.stringify(outcome.content)).toContain("unknown tool missing");
  expect(fakes.latest("only")!.calls).toEqual([{ name: "missing", args: { a: 1 }, relayTo }]);
});

it("has no runner for unlisted names under prefixed names or with several servers", async () => {
  expect((await mount(["only"])).catalog.unlistedTool("missing")).toBeUndefined();
  expect((await mount(["a", "b"], "as-is")).catalog.unlistedTool("missing")).toBeUndefined();
});
