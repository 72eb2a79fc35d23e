import { isProtocolFault, type GatewayChange, type JsonObject } from "@indus/contract";
import { EndpointFleet, MountedToolBox, gatewayUri, parseGatewayUri } from "@indus/fleet";
import { fakeEndpoints, fakeServer, type FakeScript } from "@indus/fleet/testing";

// What the catalog does with what servers list: routing and namespacing, not
// the wire, so the servers are fakes (endpoint's own tests cover the wire).
function catalogServer(id: string): FakeScript {
  return {
    resources: [
      { uri: `fixture://${id}/readme`, name: "readme" },
      { uri: "shared://common", name: "common" },
    ],
    resourceTemplates: [{ uriTemplate: `fixture://${id}/items/{id}`, name: "item" }],
    prompts: [{ name: "greet", description: `${id} greets` }],
  };
}

const fakes = fakeEndpoints({ a: catalogServer("a"), b: catalogServer("b") });
const fleet = new EndpointFleet({ createEndpoint: fakes.createEndpoint });
const box = new MountedToolBox(fleet);
beforeAll(async () => {
  // "t" has no resources or prompts at all; it must simply contribute nothing.
  await fleet.start({ servers: [fakeServer("a"), fakeServer("b"), fakeServer("t")] });
  await box.settled();
});

const textOf = async (uri: string) => {
  const result = await box.catalog.readResource(uri);
  return (result["contents"] as { uri: string; text: string }[])[0]!;
};

it("keeps unique resource URIs and namespaces colliding ones per server", async () => {
  const uris = (await box.catalog.listResources()).map((resource) => resource["uri"]);
  expect(uris).toEqual([
    "fixture://a/readme",
    gatewayUri("a", "shared://common"),
    "fixture://b/readme",
    gatewayUri("b", "shared://common"),
  ]);
  expect(parseGatewayUri("indus://b/shared://common")).toEqual({ server: "b", original: "shared://common" });
});

it("routes reads by URI, by namespaced URI and by template", async () => {
  expect(await textOf("fixture://b/readme")).toEqual({ uri: "fixture://b/readme", text: "b says: fixture://b/readme" });
  // The original URI goes to the server; the content comes back under the URI asked for.
  expect(await textOf("indus://a/shared://common")).toEqual({
    uri: "indus://a/shared://common",
    text: "a says: shared://common",
  });
  expect(await textOf("indus://b/shared://common")).toMatchObject({ text: "b says: shared://common" });

  const templates = await box.catalog.listResourceTemplates();
  expect(templates.map((template) => template["uriTemplate"])).toEqual([
    "fixture://a/items/{id}",
    "fixture://b/items/{id}",
  ]);
  expect(await textOf("fixture://b/items/42")).toMatchObject({ text: "b says: fixture://b/items/42" });

  const fault = await box.catalog.readResource("nowhere://x").catch((error: unknown) => error);
  expect(isProtocolFault(fault) && fault.kind).toBe("protocol");
});

it("publishes prompts as <server>__<prompt> and gets them from their server", async () => {
  const prompts = await box.catalog.listPrompts();
  expect(prompts.map((prompt) => prompt["name"])).toEqual(["a__greet", "b__greet"]);
  const result = await box.catalog.getPrompt("b__greet", { who: "you" });
  expect(fakes.latest("b")?.phase).toBe("ready");
  expect((result["messages"] as JsonObject[])[0]).toMatchObject({ role: "user" });
  await expect(box.catalog.getPrompt("zz__greet", {})).rejects.toMatchObject({ kind: "protocol" });
});

it("tells subscribers when a server's resources or prompts change, and when the fleet restarts", async () => {
  const seen: GatewayChange[] = [];
  const off = box.catalog.onChanged((change) => seen.push(change));
  fakes.latest("a")!.emitCatalogChanged("resources");
  expect(seen).toEqual(["resources"]);
  await fleet.start({ servers: [fakeServer("a")] });
  expect(seen).toEqual(["resources", "resources", "prompts"]);
  fakes.latest("a")!.emitCatalogChanged("prompts");
  expect(seen.at(-1)).toBe("prompts");
  off();
});
