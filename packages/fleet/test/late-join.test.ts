import { protocolFault } from "@indus/contract";
import { fleetMount, type MountedToolBox } from "@indus/fleet";
import { fakeEndpoints, fakeServer } from "@indus/fleet/testing";
import { waitFor } from "@indus/testkit";

// A host may serve before every mounted server has settled (`indusr mcp
// serve`'s boot wait): servers that become ready later must reach the box
// (and the catalog's change listeners) when they do, not when the slowest
// server settles.

const names = (box: MountedToolBox) => box.descriptors().map((descriptor) => descriptor.name);

function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

it("a server ready after the box's first listing joins it while another still hangs; the hung one's fault settles the mount", async () => {
  const late = gate();
  const hung = gate();
  const fakes = fakeEndpoints({
    quick: { tools: [{ name: "t" }] },
    late: { openGate: late.promise, tools: [{ name: "t" }], prompts: [{ name: "p" }] },
    hung: { openGate: hung.promise, openFault: protocolFault("timeout", "never initialized") },
  });
  const mounted = fleetMount({ createEndpoint: fakes.createEndpoint })([
    fakeServer("hung"),
    fakeServer("quick"),
    fakeServer("late"),
  ]);
  let settled = false;
  void mounted.settled.then(() => (settled = true));
  await waitFor("only quick__t mounted", () => names(mounted.box).join() === "quick__t");

  let toolsTold = 0;
  const catalogTold: string[] = [];
  mounted.box.onDescriptorsChanged(() => (toolsTold += 1));
  mounted.box.catalog.onChanged((change) => catalogTold.push(change));
  late.open();
  await waitFor("late__t mounted", () => names(mounted.box).includes("late__t"));
  expect(names(mounted.box)).toEqual(["quick__t", "late__t"]);
  expect(toolsTold).toBe(1);
  expect(catalogTold).toEqual(["prompts"]);
  await expect(mounted.box.runner.run({ id: "c", name: "late__t", input: {} })).resolves.toMatchObject({
    isError: false,
  });
  expect(settled).toBe(false);

  hung.open();
  await mounted.settled;
  await mounted.box.settled();
  expect(mounted.fleet.status().get("hung")?.fault?.kind).toBe("timeout");
  expect(names(mounted.box)).toEqual(["quick__t", "late__t"]);
  await mounted.fleet.tearDown();
});

it("a server that dies or reconnects has its tools withdrawn at once; they return when it is ready, changes followed", async () => {
  const fakes = fakeEndpoints({ a: { tools: [{ name: "t" }] }, b: { tools: [{ name: "t" }] } });
  const mounted = fleetMount({ createEndpoint: fakes.createEndpoint })([fakeServer("a"), fakeServer("b")]);
  await mounted.settled;
  let told = 0;
  mounted.box.onDescriptorsChanged(() => (told += 1));
  const a = fakes.latest("a")!;
  a.phase = "connecting";
  expect(names(mounted.box)).toEqual(["b__t"]);
  await mounted.box.refresh();
  expect(names(mounted.box)).toEqual(["b__t"]);
  a.phase = "ready";
  await waitFor("a__t and b__t mounted", () => names(mounted.box).join() === "a__t,b__t");
  a.setTools([{ name: "t" }, { name: "u" }]);
  expect(names(mounted.box)).toEqual(["a__t", "a__u", "b__t"]);
  a.fault = protocolFault("transport", "exited with code 7");
  a.phase = "faulted";
  expect(names(mounted.box)).toEqual(["b__t"]);
  expect(told).toBe(4);
  await mounted.fleet.tearDown();
});
