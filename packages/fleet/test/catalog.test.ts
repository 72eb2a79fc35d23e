import { isProtocolFault, type GatewayChange } from "@indus/contract";
import { gatewayUri, mountProtocolBridge, parseGatewayUri, type MountedProtocolBridge } from "@indus/fleet";
import { scripted, tiny } from "../../endpoint/test/helpers/servers";
import { eventually } from "../../endpoint/test/helpers/processes";

jest.setTimeout(60_000);

let mounted: MountedProtocolBridge;
beforeAll(async () => {
  // "t" has no resources or prompts at all; it must simply contribute nothing.
  mounted = await mountProtocolBridge({ servers: [scripted("a"), scripted("b"), tiny("t")] });
});
afterAll(() => mounted.fleet.tearDown());

it("keeps unique resource URIs and namespaces colliding ones per server", async () => {
  const catalog = mounted.box.catalog;
  const uris = (await catalog.listResources()).map((resource) => resource["uri"]);
  expect(uris).toEqual([
    "fixture://a/readme",
    gatewayUri("a", "shared://common"),
    "fixture://b/readme",
    gatewayUri("b", "shared://common"),
  ]);
  expect(parseGatewayUri("indus://b/shared://common")).toEqual({ server: "b", original: "shared://common" });
});

it("routes reads by URI, by namespaced URI and by template", async () => {
  const catalog = mounted.box.catalog;
  const textOf = async (uri: string) => {
    const result = await catalog.readResource(uri);
    return (result["contents"] as { uri: string; text: string }[])[0]!;
  };
  expect(await textOf("fixture://b/readme")).toEqual({
    uri: "fixture://b/readme",
    mimeType: "text/plain",
    text: "b says: fixture://b/readme",
  });
  // The original URI goes to the server; the content comes back under the URI asked for.
  expect(await textOf("indus://a/shared://common")).toMatchObject({
    uri: "indus://a/shared://common",
    text: "a says: shared://common",
  });
  expect(await textOf("indus://b/shared://common")).toMatchObject({ text: "b says: shared://common" });

  const templates = await catalog.listResourceTemplates();
  expect(templates.map((template) => template["uriTemplate"])).toEqual([
    "fixture://a/items/{id}",
    "fixture://b/items/{id}",
  ]);
  expect(await textOf("fixture://b/items/42")).toMatchObject({ text: "b says: fixture://b/items/42" });

  const fault = await catalog.readResource("nowhere://x").catch((error: unknown) => error);
  expect(isProtocolFault(fault) && fault.kind).toBe("protocol");
});

it("publishes prompts as <server>__<prompt> and gets them from their server", async () => {
  const catalog = mounted.box.catalog;
  const prompts = await catalog.listPrompts();
  expect(prompts.map((prompt) => prompt["name"])).toEqual(["a__greet", "b__greet"]);
  const result = await catalog.getPrompt("b__greet", { who: "you" });
  expect(result["messages"]).toEqual([{ role: "user", content: { type: "text", text: "b greets you" } }]);
  await expect(catalog.getPrompt("zz__greet", {})).rejects.toMatchObject({ kind: "protocol" });
});

it("tells subscribers when a server's resources or prompts change", async () => {
  const seen: GatewayChange[] = [];
  const off = mounted.box.catalog.onChanged((change) => seen.push(change));
  await mounted.box.runner.run({ id: "1", name: "a__touch_catalog", input: {} });
  expect(await eventually(() => seen.includes("resources") && seen.includes("prompts"))).toBe(true);
  off();
});
