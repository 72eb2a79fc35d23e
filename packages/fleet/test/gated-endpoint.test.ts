import type { DefinitionGate, DefinitionKind, JsonObject, JsonValue, ServerConfig } from "@indus/contract";
import { isProtocolFault } from "@indus/contract";
import { EndpointFleet, MountedToolBox } from "@indus/fleet";
import { FakeEndpoint, fakeEndpoints, fakeServer } from "@indus/fleet/testing";

// What the mount does with a gate's verdicts, whoever asks: the gate here is
// scripted (the real one, pins and inspection, is the deck's and is tested there).
function scriptedGate(withhold: (kind: DefinitionKind, item: JsonObject) => boolean) {
  const seen: { kind: DefinitionKind; names: string[]; bodies: (JsonValue | undefined)[] }[] = [];
  const gate: DefinitionGate = {
    screen(server: ServerConfig, kind, listed) {
      seen.push({
        kind,
        names: listed.map((l) => JSON.stringify(l.item["name"] ?? l.item["uri"])),
        bodies: listed.map((l) => l.uiBody),
      });
      return listed.map((l) => {
        if (!withhold(kind, l.item)) return { kind: "admit", findings: [] };
        const key = kind === "resource" ? "uri" : kind === "resource-template" ? "uriTemplate" : "name";
        const name = l.item[key] as string;
        return {
          kind: "withhold",
          withheld: {
            server: server.id,
            kind,
            name,
            reason: "changed",
            fields: ["description"],
            message: `${name} changed`,
          },
        };
      });
    },
    screenBody: (_server, uri, contents) =>
      JSON.stringify(contents).includes("EVIL")
        ? {
            kind: "withhold",
            withheld: { server: "s", kind: "resource", name: uri, reason: "changed", message: `${uri} body changed` },
          }
        : { kind: "admit", findings: [] },
  };
  return { gate, seen };
}

const evil = (_kind: DefinitionKind, item: JsonObject) => JSON.stringify(item["description"] ?? "").includes("EVIL");

async function mounted(gate: DefinitionGate) {
  const fakes = fakeEndpoints({
    s: {
      tools: [
        { name: "good", description: "fine" },
        { name: "bad", description: "EVIL now" },
        { name: "app", description: "shows an app", wire: { _meta: { ui: { resourceUri: "ui://s/app.html" } } } },
        { name: "hidden", description: "EVIL but excluded" },
      ],
      prompts: [
        { name: "p1", description: "fine" },
        { name: "p2", description: "EVIL" },
      ],
      resources: [
        { uri: "file:///ok", name: "ok" },
        { uri: "file:///bad", name: "bad", description: "EVIL" },
      ],
      resourceTemplates: [{ uriTemplate: "file:///t/{x}", name: "t", description: "EVIL" }],
    },
  });
  const fleet = new EndpointFleet({ createEndpoint: fakes.createEndpoint, gate });
  const box = new MountedToolBox(fleet);
  await fleet.start({ servers: [{ ...fakeServer("s"), excludeTools: ["hidden"] }] });
  await box.settled();
  return { fleet, box, fakes };
}

const faultOf = async (work: Promise<unknown>) => {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isProtocolFault(error)) throw new Error(`expected a fault, got ${String(error)}`);
  return error;
};

it("leaves withheld tools out of the box and fails a call to one with a withheld fault", async () => {
  const { gate } = scriptedGate(evil);
  const { fleet, box, fakes } = await mounted(gate);
  expect(box.descriptors().map((d) => d.name)).toEqual(["s__good", "s__app"]);
  expect(fleet.status().get("s")?.toolCount).toBe(2);
  const fault = await faultOf(fleet.endpoint("s")!.invoke("bad", {}));
  expect(fault).toMatchObject({ kind: "withheld", server: "s", message: "bad changed" });
  expect(fakes.latest("s")!.calls).toEqual([]);
  await fleet.tearDown();
});

it("screens only the tools the config keeps, and reads the ui:// body a tool shows", async () => {
  const { gate, seen } = scriptedGate(evil);
  const { fleet } = await mounted(gate);
  const tools = seen.find((s) => s.kind === "tool")!;
  expect(tools.names).toEqual(['"good"', '"bad"', '"app"']);
  expect(tools.bodies[2]).toEqual([{ uri: "ui://s/app.html", text: "s says: ui://s/app.html" }]);
  expect(tools.bodies[0]).toBeUndefined();
  await fleet.tearDown();
});

it("withholds prompts, resources and templates from the catalog, and refuses using them", async () => {
  const { gate } = scriptedGate(evil);
  const { fleet, box } = await mounted(gate);
  expect((await box.catalog.listPrompts()).map((p) => p["name"])).toEqual(["s__p1"]);
  expect((await box.catalog.listResources()).map((r) => r["uri"])).toEqual(["file:///ok"]);
  expect(await box.catalog.listResourceTemplates()).toEqual([]);
  const endpoint = fleet.endpoint("s")!;
  expect(await faultOf(endpoint.getPrompt("p2"))).toMatchObject({ kind: "withheld", message: "p2 changed" });
  expect(await faultOf(endpoint.readResource("file:///bad"))).toMatchObject({ kind: "withheld" });
  expect(await faultOf(endpoint.readResource("file:///t/42"))).toMatchObject({
    kind: "withheld",
    message: "file:///t/{x} changed",
  });
  expect((await endpoint.readResource("file:///ok"))["contents"]).toBeDefined();
  await fleet.tearDown();
});

it("refuses a prompt never listed before it is asked for (it lists first)", async () => {
  const { gate } = scriptedGate(evil);
  const { fleet } = await mounted(gate);
  expect(await faultOf(fleet.endpoint("s")!.getPrompt("p2"))).toMatchObject({ kind: "withheld" });
  await fleet.tearDown();
});

it("checks a ui:// body again on every read", async () => {
  const { gate } = scriptedGate((kind, item) => kind === "resource" && item["uri"] === "never");
  const fakes = fakeEndpoints({ s: {} });
  const fleet = new EndpointFleet({ createEndpoint: fakes.createEndpoint, gate });
  await fleet.start({ servers: [fakeServer("s")] });
  const endpoint = fleet.endpoint("s")!;
  expect((await endpoint.readResource("ui://s/fine.html"))["contents"]).toBeDefined();
  expect(await faultOf(endpoint.readResource("ui://s/EVIL.html"))).toMatchObject({
    kind: "withheld",
    message: "ui://s/EVIL.html body changed",
  });
  await fleet.tearDown();
});

it("passes tool-list changes on screened, and keeps what the server can relay", async () => {
  const { gate } = scriptedGate(evil);
  const { fleet, box, fakes } = await mounted(gate);
  const changed = new Promise<void>((resolve) => box.onDescriptorsChanged(resolve));
  fakes.latest("s")!.setTools([
    { name: "good", description: "EVIL now too" },
    { name: "fresh", description: "fine" },
  ]);
  await changed;
  expect(box.descriptors().map((d) => d.name)).toEqual(["s__fresh"]);
  const endpoint = fleet.endpoint("s")!;
  expect(typeof endpoint.complete).toBe("function");
  expect(typeof endpoint.setLogLevel).toBe("function");
  await fleet.tearDown();
});

it("keeps exactly the optional members the endpoint has (a relay the server offers is never lost)", async () => {
  const { gate } = scriptedGate(() => false);
  const OPTIONAL = [
    "complete",
    "subscribeResource",
    "unsubscribeResource",
    "onResourceUpdated",
    "setLogLevel",
    "onLog",
    "notifyRootsChanged",
    "listSkills",
    "getSkill",
    "readSkill",
  ] as const;
  const skills = { listSkills: () => Promise.resolve([]), getSkill: () => Promise.reject(new Error("x")) };
  const full = fakeEndpoints({ s: {} });
  const bare = fakeEndpoints({ s: { lacks: ["complete", "onLog", "setLogLevel"] } });
  for (const [fakes, extra] of [
    [full, skills],
    [bare, {}],
  ] as const) {
    const fleet = new EndpointFleet({
      createEndpoint: (config, options) => Object.assign(fakes.createEndpoint(config, options), extra),
      gate,
    });
    await fleet.start({ servers: [fakeServer("s")] });
    const inner = fakes.latest("s")! as unknown as Record<string, unknown>;
    const gated = fleet.endpoint("s")! as unknown as Record<string, unknown>;
    for (const member of OPTIONAL) expect([member, typeof gated[member]]).toEqual([member, typeof inner[member]]);
    await fleet.tearDown();
  }
});

it("reads a ui:// body a tool and a resource both present once at start-up, and afresh on a later listing", async () => {
  const reads = jest.spyOn(FakeEndpoint.prototype, "readResource");
  try {
    const { gate, seen } = scriptedGate(() => false);
    const fakes = fakeEndpoints({
      s: {
        tools: [{ name: "app", description: "an app", wire: { _meta: { ui: { resourceUri: "ui://s/app.html" } } } }],
        resources: [{ uri: "ui://s/app.html", name: "app page" }],
      },
    });
    const fleet = new EndpointFleet({ createEndpoint: fakes.createEndpoint, gate });
    const box = new MountedToolBox(fleet);
    await fleet.start({ servers: [fakeServer("s")] });
    await box.settled();
    const endpoint = fleet.endpoint("s")!;
    await endpoint.listResources();
    expect(reads.mock.calls.map(([uri]) => uri)).toEqual(["ui://s/app.html"]);
    const body = [{ uri: "ui://s/app.html", text: "s says: ui://s/app.html" }];
    expect(seen.filter((s) => s.kind !== "resource-template").map((s) => [s.kind, s.bodies])).toEqual([
      ["tool", [body]],
      ["resource", [body]],
    ]);
    await endpoint.listResources();
    expect(reads).toHaveBeenCalledTimes(2);
    await fleet.tearDown();
  } finally {
    reads.mockRestore();
  }
});
