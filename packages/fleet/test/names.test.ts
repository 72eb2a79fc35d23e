import type { ProtocolFault } from "@indus/contract";
import { EndpointFleet, MountedToolBox, fleetMount, nameClashOf } from "@indus/fleet";
import { fakeEndpoints, fakeServer, type FakeScript } from "@indus/fleet/testing";

// `names: "as-is"`: a gateway standing in for its servers publishes their own
// names; two servers offering one name is a clash naming both.

function server(id: string, extra: FakeScript = {}): FakeScript {
  return {
    tools: [{ name: `${id}_only` }],
    prompts: [{ name: `${id}_prompt` }],
    resources: [{ uri: `file:///${id}.txt`, name: id }],
    resourceTemplates: [{ uriTemplate: `${id}://items/{id}`, name: "item" }],
    ...extra,
  };
}

async function mountAsIs(scripts: Record<string, FakeScript>) {
  const fakes = fakeEndpoints(scripts);
  const fleet = new EndpointFleet({ createEndpoint: fakes.createEndpoint }, (endpoint) => endpoint.listTools());
  const box = new MountedToolBox(fleet, { names: "as-is" });
  await fleet.start({ servers: Object.keys(scripts).map((id) => fakeServer(id)) });
  await box.settled();
  return { fakes, fleet, box };
}

it("publishes tools, prompts, resources and templates under the servers' own names", async () => {
  const { box, fakes } = await mountAsIs({ a: server("a"), b: server("b") });
  expect(box.descriptors().map((d) => d.name)).toEqual(["a_only", "b_only"]);
  expect(box.resolve("b_only")?.ref).toEqual({ server: "b", name: "b_only" });
  expect((await box.catalog.listPrompts()).map((p) => p["name"])).toEqual(["a_prompt", "b_prompt"]);
  expect((await box.catalog.listResources()).map((r) => r["uri"])).toEqual(["file:///a.txt", "file:///b.txt"]);
  expect((await box.catalog.listResourceTemplates()).map((t) => t["uriTemplate"])).toEqual([
    "a://items/{id}",
    "b://items/{id}",
  ]);
  expect(await box.nameClashes()).toEqual([]);

  const outcome = await box.runner.run({ id: "1", name: "b_only", input: { x: 1 } });
  expect(outcome.isError).toBe(false);
  expect(fakes.latest("b")!.calls).toEqual([{ name: "b_only", args: { x: 1 } }]);
  const prompt = await box.catalog.getPrompt("b_prompt", {});
  expect(JSON.stringify(prompt)).toContain("b_prompt");
});

it("reports a tool, prompt and resource URI offered by two servers as faults naming both; the first keeps it", async () => {
  const shared = {
    tools: [{ name: "echo" }],
    prompts: [{ name: "greet" }],
    resources: [{ uri: "file:///same.txt", name: "same" }],
  };
  const { box } = await mountAsIs({ a: shared, b: shared, c: server("c") });
  const faults = await box.nameClashes();
  const clashes = faults.map((fault) => nameClashOf(fault));
  expect(clashes).toEqual(
    expect.arrayContaining([
      { kind: "tool", name: "echo", servers: ["a", "b"] },
      { kind: "prompt", name: "greet", servers: ["a", "b"] },
      { kind: "resource", name: "file:///same.txt", servers: ["a", "b"] },
    ]),
  );
  expect(clashes).toHaveLength(3);
  const tool = faults.find((fault) => nameClashOf(fault)?.kind === "tool")!;
  expect(tool).toMatchObject({ kind: "protocol", server: "b" });
  expect(tool.message).toContain('"a"');
  expect(tool.message).toContain('"b"');
  expect(tool.message).toContain('"echo"');

  expect(box.descriptors().map((d) => d.name)).toEqual(["echo", "c_only"]);
  expect(box.resolve("echo")?.ref.server).toBe("a");
  expect((await box.catalog.listResources()).map((r) => r["uri"])).toEqual(["file:///same.txt", "file:///c.txt"]);
  const read = await box.catalog.readResource("file:///same.txt");
  expect(JSON.stringify(read)).toContain("a says");
});

it("tells listeners of a clash a later list change brings, once, and keeps the first server's tool", async () => {
  const { box, fakes } = await mountAsIs({ a: server("a"), b: server("b") });
  const heard: ProtocolFault[] = [];
  box.onNameClash((fault) => heard.push(fault));
  // The fake announces list changes synchronously; b's copy is dropped, so b's published tools stay the same.
  fakes.latest("b")!.setTools([{ name: "b_only" }, { name: "a_only" }]);
  expect(heard.map(nameClashOf)).toEqual([{ kind: "tool", name: "a_only", servers: ["a", "b"] }]);
  expect(box.resolve("a_only")?.ref.server).toBe("a");
  expect(box.descriptors().map((d) => d.name)).toEqual(["a_only", "b_only"]);
  fakes.latest("b")!.setTools([{ name: "b_only" }, { name: "a_only" }, { name: "extra" }]);
  expect(heard).toHaveLength(1);
  expect(box.descriptors().map((d) => d.name)).toEqual(["a_only", "b_only", "extra"]);
});

it("keeps prefixed names by default, where nothing can clash", async () => {
  const fakes = fakeEndpoints({ a: { tools: [{ name: "echo" }] }, b: { tools: [{ name: "echo" }] } });
  const mounted = fleetMount({ createEndpoint: fakes.createEndpoint })([fakeServer("a"), fakeServer("b")]);
  await mounted.settled;
  expect(mounted.box.descriptors().map((d) => d.name)).toEqual(["a__echo", "b__echo"]);
  expect(await mounted.box.nameClashes()).toEqual([]);
  const asIs = fleetMount({ createEndpoint: fakes.createEndpoint, names: "as-is" })([fakeServer("a")]);
  await asIs.settled;
  expect(asIs.box.descriptors().map((d) => d.name)).toEqual(["echo"]);
});

it("reads back no clash from faults that are not clashes", () => {
  expect(nameClashOf(new Error("x"))).toBeUndefined();
});
