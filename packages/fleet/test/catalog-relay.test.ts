import type { JsonObject, ServerLogEntry } from "@indus/contract";
import { EndpointFleet, MountedToolBox, gatewayUri } from "@indus/fleet";
import { fakeEndpoints, fakeServer, type FakeScript } from "@indus/fleet/testing";

// The catalog's relay of completion, subscriptions, log levels and messages
// and roots changes to the servers behind it: routing and bookkeeping only,
// so the servers are fakes (endpoint's own tests cover the wire).

function relayServer(id: string, extra: FakeScript = {}): FakeScript {
  return {
    resources: [
      { uri: `fixture://${id}/readme`, name: "readme" },
      { uri: "shared://common", name: "common" },
    ],
    resourceTemplates: [
      { uriTemplate: `fixture://${id}/items/{id}`, name: "item" },
      { uriTemplate: "shared://t/{x}", name: "shared" },
    ],
    prompts: [{ name: "greet", arguments: [{ name: "who" }] }],
    capabilities: { logging: {}, completions: {} },
    complete: (params) => ({ completion: { values: [`${id}:${JSON.stringify(params["ref"])}`] } }),
    ...extra,
  };
}

async function mount(scripts: Record<string, FakeScript>, names?: "as-is") {
  const fakes = fakeEndpoints(scripts);
  const fleet = new EndpointFleet({ createEndpoint: fakes.createEndpoint }, (endpoint) => endpoint.listTools());
  const box = new MountedToolBox(fleet, names ? { names } : {});
  await fleet.start({ servers: Object.keys(scripts).map((id) => fakeServer(id)) });
  await box.settled();
  return { fakes, fleet, catalog: box.catalog };
}

const valuesOf = (result: JsonObject) => (result["completion"] as { values: string[] }).values;

describe("complete", () => {
  it("routes a prompt ref by its published name and sends the server its own name", async () => {
    const { catalog, fakes } = await mount({ a: relayServer("a"), b: relayServer("b") });
    const result = await catalog.complete({
      ref: { type: "ref/prompt", name: "b__greet" },
      argument: { name: "who", value: "w" },
    });
    expect(valuesOf(result)).toEqual([`b:{"type":"ref/prompt","name":"greet"}`]);
    expect(fakes.latest("b")!.relayed).toEqual([
      {
        kind: "complete",
        params: { ref: { type: "ref/prompt", name: "greet" }, argument: { name: "who", value: "w" } },
      },
    ]);
    expect(fakes.latest("a")!.relayed).toEqual([]);
  });

  it("routes a resource template ref by its published form, namespaced or not", async () => {
    const { catalog } = await mount({ a: relayServer("a"), b: relayServer("b") });
    const own = await catalog.complete({
      ref: { type: "ref/resource", uri: "fixture://b/items/{id}" },
      argument: { name: "id", value: "4" },
    });
    expect(valuesOf(own)).toEqual([`b:{"type":"ref/resource","uri":"fixture://b/items/{id}"}`]);
    // Both servers list "shared://t/{x}", so each copy is published under indus://<server>/.
    const shared = await catalog.complete({
      ref: { type: "ref/resource", uri: gatewayUri("b", "shared://t/{x}") },
      argument: { name: "x", value: "" },
    });
    expect(valuesOf(shared)).toEqual([`b:{"type":"ref/resource","uri":"shared://t/{x}"}`]);
  });

  it("routes by the servers' own names under as-is naming", async () => {
    const { catalog } = await mount({ a: relayServer("a", { prompts: [{ name: "hello" }] }) }, "as-is");
    const result = await catalog.complete({
      ref: { type: "ref/prompt", name: "hello" },
      argument: { name: "n", value: "" },
    });
    expect(valuesOf(result)).toEqual([`a:{"type":"ref/prompt","name":"hello"}`]);
  });

  it("rejects an unknown ref, and a server without completion support, with protocol faults", async () => {
    const { catalog } = await mount({ a: relayServer("a", { lacks: ["complete"] }) });
    await expect(
      catalog.complete({ ref: { type: "ref/prompt", name: "zz__greet" }, argument: { name: "who", value: "" } }),
    ).rejects.toMatchObject({ kind: "protocol" });
    await expect(
      catalog.complete({ ref: { type: "ref/prompt", name: "a__greet" }, argument: { name: "who", value: "" } }),
    ).rejects.toMatchObject({ kind: "protocol", server: "a" });
  });
});

describe("subscriptions", () => {
  it("holds one upstream subscription for many subscribers, ended by the last unsubscribe", async () => {
    const { catalog, fakes } = await mount({ a: relayServer("a"), b: relayServer("b") });
    const shared = gatewayUri("b", "shared://common");
    await Promise.all([catalog.subscribe(shared), catalog.subscribe(shared)]);
    await catalog.subscribe("fixture://a/items/7"); // by template
    expect(fakes.latest("b")!.relayed).toEqual([{ kind: "subscribe", uri: "shared://common" }]);
    expect(fakes.latest("a")!.relayed).toEqual([{ kind: "subscribe", uri: "fixture://a/items/7" }]);
    await catalog.unsubscribe(shared);
    expect(fakes.latest("b")!.relayed).toHaveLength(1);
    await catalog.unsubscribe(shared);
    expect(fakes.latest("b")!.relayed.at(-1)).toEqual({ kind: "unsubscribe", uri: "shared://common" });
    await catalog.unsubscribe(shared); // nothing held: a no-op
    expect(fakes.latest("b")!.relayed).toHaveLength(2);
  });

  it("maps a server's update back to the URI it was published under", async () => {
    const { catalog, fakes } = await mount({ a: relayServer("a"), b: relayServer("b") });
    const updated: string[] = [];
    catalog.onResourceUpdated((uri) => updated.push(uri));
    await catalog.subscribe(gatewayUri("a", "shared://common"));
    fakes.latest("a")!.emitResourceUpdated("shared://common");
    fakes.latest("b")!.emitResourceUpdated("fixture://b/readme");
    expect(updated).toEqual([gatewayUri("a", "shared://common"), "fixture://b/readme"]);
  });

  it("subscribes again on a reconnected server's new endpoint, and follows its updates", async () => {
    const { catalog, fakes, fleet } = await mount({ a: relayServer("a") });
    const updated: string[] = [];
    catalog.onResourceUpdated((uri) => updated.push(uri));
    await catalog.subscribe("fixture://a/readme");
    const fresh = await fleet.reconnect("a");
    expect(fresh).toBe(fakes.latest("a"));
    await Promise.resolve();
    await Promise.resolve();
    expect(fakes.latest("a")!.relayed).toEqual([{ kind: "subscribe", uri: "fixture://a/readme" }]);
    fakes.latest("a")!.emitResourceUpdated("fixture://a/readme");
    expect(updated).toEqual(["fixture://a/readme"]);
  });

  it("rejects a subscription the owning server cannot take", async () => {
    const { catalog } = await mount({ a: relayServer("a", { lacks: ["subscribeResource"] }) });
    await expect(catalog.subscribe("fixture://a/readme")).rejects.toMatchObject({ kind: "protocol", server: "a" });
    await expect(catalog.subscribe("nowhere://x")).rejects.toMatchObject({ kind: "protocol" });
  });
});

describe("logging and roots", () => {
  it("sets the level on every ready server that logs, and on servers that come up later", async () => {
    let open = () => undefined as void;
    const gate = { promise: new Promise<void>((resolve) => (open = resolve)) };
    const scripts = {
      a: relayServer("a"),
      quiet: relayServer("quiet", { capabilities: {} }),
      lacking: relayServer("lacking", { lacks: ["setLogLevel"] }),
      late: relayServer("late", { openGate: gate.promise }),
    };
    const fakes = fakeEndpoints(scripts);
    const fleet = new EndpointFleet({ createEndpoint: fakes.createEndpoint });
    const box = new MountedToolBox(fleet);
    const started = fleet.start({ servers: Object.keys(scripts).map((id) => fakeServer(id)) });
    await new Promise((resolve) => setTimeout(resolve, 10));
    await box.catalog.setLogLevel("warning");
    expect(fakes.latest("a")!.relayed).toEqual([{ kind: "setLogLevel", level: "warning" }]);
    expect(fakes.latest("quiet")!.relayed).toEqual([]);
    expect(fakes.latest("late")!.relayed).toEqual([]);
    open();
    await started;
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fakes.latest("late")!.relayed).toEqual([{ kind: "setLogLevel", level: "warning" }]);
    expect(fakes.latest("a")!.relayed).toHaveLength(1);
  });

  it("tags each server's log messages with its id", async () => {
    const { catalog, fakes } = await mount({ a: relayServer("a"), b: relayServer("b") });
    const entries: ServerLogEntry[] = [];
    const off = catalog.onLog((entry) => entries.push(entry));
    fakes.latest("b")!.emitLog({ level: "info", data: "hello" });
    off();
    fakes.latest("a")!.emitLog({ level: "info", data: "unheard" });
    expect(entries).toEqual([{ server: "b", params: { level: "info", data: "hello" } }]);
  });

  it("tells every ready server its client's roots changed, skipping ones that cannot hear it", async () => {
    const { catalog, fakes } = await mount({
      a: relayServer("a"),
      b: relayServer("b", { lacks: ["notifyRootsChanged"] }),
    });
    await catalog.notifyRootsChanged();
    expect(fakes.latest("a")!.relayed).toEqual([{ kind: "rootsChanged" }]);
    expect(fakes.latest("b")!.relayed).toEqual([]);
  });
});

describe("names no listing knows", () => {
  it("go unchanged to the one server offering resources (or prompts, as-is), which answers as it would directly", async () => {
    const { catalog, fakes } = await mount({ a: relayServer("a"), t: {} }, "as-is");
    const read = await catalog.readResource("unlisted://x");
    expect(JSON.stringify(read)).toContain("a says: unlisted://x");
    await catalog.subscribe("unlisted://x");
    expect(fakes.latest("a")!.relayed).toEqual([{ kind: "subscribe", uri: "unlisted://x" }]);
    const prompt = await catalog.getPrompt("unlisted_prompt", {});
    expect(JSON.stringify(prompt)).toContain("unlisted_prompt");
  });

  it("have no owner when several servers could own them, or when names are prefixed (prompts)", async () => {
    const two = await mount({ a: relayServer("a"), b: relayServer("b") });
    await expect(two.catalog.readResource("unlisted://x")).rejects.toMatchObject({ kind: "protocol" });
    const one = await mount({ a: relayServer("a") });
    await expect(one.catalog.getPrompt("unlisted", {})).rejects.toMatchObject({ kind: "protocol" });
  });
});
