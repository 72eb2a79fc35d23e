import { protocolFault, type ToolOutcome } from "@indus/contract";
import { EndpointFleet, MountedToolBox, fleetMount } from "@indus/fleet";
import { fakeEndpoints, fakeServer, textResult } from "@indus/fleet/testing";

// The fleet's routing and bookkeeping over fake endpoints: no process is
// spawned, so interleavings (a start superseded mid-connect) are scripted.

function mountFakes(fakes: ReturnType<typeof fakeEndpoints>) {
  const fleet = new EndpointFleet({ createEndpoint: fakes.createEndpoint }, (endpoint) => endpoint.listTools());
  return { fleet, box: new MountedToolBox(fleet) };
}

const names = (box: MountedToolBox) => box.descriptors().map((descriptor) => descriptor.name);

it("isolates a failing server: peers serve, the failure shows in status in config order", async () => {
  const fakes = fakeEndpoints({
    alpha: { tools: [{ name: "echo" }] },
    broken: { openFault: protocolFault("spawn-failed", "no such program") },
    beta: { tools: [{ name: "echo" }] },
  });
  const { fleet, box } = mountFakes(fakes);
  await fleet.start({ servers: [fakeServer("alpha"), fakeServer("broken"), fakeServer("beta")] });
  await box.settled();
  expect([...fleet.status().keys()]).toEqual(["alpha", "broken", "beta"]);
  expect(fleet.status().get("broken")?.fault?.kind).toBe("spawn-failed");
  expect(names(box)).toEqual(["alpha__echo", "beta__echo"]);
});

it("applies include/exclude per server, exclude winning", async () => {
  const tools = [{ name: "echo" }, { name: "error_result" }, { name: "whoami" }, { name: "add" }];
  const fakes = fakeEndpoints({ b: { tools } });
  const { fleet, box } = mountFakes(fakes);
  await fleet.start({ servers: [fakeServer("b", { includeTools: ["e*", "w*"], excludeTools: ["error_*"] })] });
  await box.settled();
  expect(names(box)).toEqual(["b__echo", "b__whoami"]);
});

it("salts a name two servers both produce; the first in config order keeps it", async () => {
  // Server "a__b" tool "c" and server "a" tool "b__c" both qualify to "a__b__c".
  const fakes = fakeEndpoints({ a__b: { tools: [{ name: "c" }] }, a: { tools: [{ name: "b__c" }] } });
  const { fleet, box } = mountFakes(fakes);
  await fleet.start({ servers: [fakeServer("a__b"), fakeServer("a")] });
  await box.settled();
  const [first, second] = names(box);
  expect(first).toBe("a__b__c");
  expect(second).toMatch(/^a__b__c_[0-9a-f]{8}$/);
  expect(box.resolve(second!)?.ref).toEqual({ server: "a", name: "b__c" });
});

it("routes a qualified name to its server under the server-side name; faults become isError outcomes", async () => {
  const fakes = fakeEndpoints({
    s: {
      tools: [
        { name: "hello", run: (args) => textResult(`hi ${JSON.stringify(args)}`) },
        {
          name: "boom",
          run: () => {
            throw protocolFault("tool-error", "it broke");
          },
        },
      ],
    },
  });
  const { fleet, box } = mountFakes(fakes);
  await fleet.start({ servers: [fakeServer("s")] });
  await box.settled();
  const run = (name: string): Promise<ToolOutcome> => box.runner.run({ id: name, name, input: { x: 1 } });
  await expect(run("s__hello")).resolves.toEqual({
    callId: "s__hello",
    content: [{ type: "text", text: 'hi {"x":1}' }],
    isError: false,
  });
  expect(fakes.latest("s")?.calls).toEqual([{ name: "hello", args: { x: 1 } }]);
  expect((await run("s__boom")).isError).toBe(true);
  expect((await run("nope__x")).isError).toBe(true);
});

it("follows a server's tool-list changes and tells the box's subscribers", async () => {
  const fakes = fakeEndpoints({ s: { tools: [{ name: "one" }] } });
  const { fleet, box } = mountFakes(fakes);
  await fleet.start({ servers: [fakeServer("s")] });
  await box.settled();
  let told = 0;
  box.onDescriptorsChanged(() => (told += 1));
  fakes.latest("s")!.setTools([{ name: "one" }, { name: "two" }]);
  expect(names(box)).toEqual(["s__one", "s__two"]);
  fakes.latest("s")!.setTools([{ name: "two" }]);
  expect(names(box)).toEqual(["s__two"]);
  expect(told).toBe(2);
});

it("a start superseded mid-connect leaves only the newer servers", async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const fakes = fakeEndpoints({ slow: { openGate: gate, tools: [{ name: "t" }] }, fresh: { tools: [{ name: "t" }] } });
  const { fleet, box } = mountFakes(fakes);
  const first = fleet.start({ servers: [fakeServer("slow")] });
  await fleet.start({ servers: [fakeServer("fresh")] });
  release();
  await first;
  await box.settled();
  expect([...fleet.status().keys()]).toEqual(["fresh"]);
  expect(fakes.latest("slow")?.phase).not.toBe("ready");
  expect(names(box)).toEqual(["fresh__t"]);
});

it("reconnect replaces one server's endpoint; peers and the box keep working", async () => {
  const fakes = fakeEndpoints({ a: { tools: [{ name: "t" }] }, b: { tools: [{ name: "t" }] } });
  const { fleet, box } = mountFakes(fakes);
  await fleet.start({ servers: [fakeServer("a"), fakeServer("b")] });
  await box.settled();
  const [oldA, b] = [fleet.endpoint("a"), fleet.endpoint("b")];
  const fresh = await fleet.reconnect("a");
  await box.settled();
  expect(fresh).not.toBe(oldA);
  expect(fleet.endpoint("a")).toBe(fresh);
  expect(fleet.endpoint("b")).toBe(b);
  expect(oldA?.phase).toBe("closed");
  expect(fakes.made.filter((endpoint) => endpoint.config.id === "a")).toHaveLength(2);
  expect(names(box)).toEqual(["a__t", "b__t"]);
  await expect(fleet.reconnect("nobody")).resolves.toBeUndefined();
});

it("fleetMount implements the contract's mount port: returns at once, settles with the tools listed", async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const fakes = fakeEndpoints({ s: { openGate: gate, tools: [{ name: "t" }] } });
  const mounted = fleetMount({ createEndpoint: fakes.createEndpoint })([fakeServer("s")]);
  expect(mounted.fleet.status().get("s")?.phase).toMatch(/^(idle|connecting)$/);
  release();
  await mounted.settled;
  expect(mounted.box.descriptors().map((descriptor) => descriptor.name)).toEqual(["s__t"]);
  expect(mounted.box.catalog).toBeDefined();
  await mounted.fleet.tearDown();
  expect(fakes.latest("s")?.phase).toBe("closed");
});
