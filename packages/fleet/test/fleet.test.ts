import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isProtocolFault, type ServerConfig } from "@indus/contract";
import { EndpointFleet, startServerFleet } from "@indus/fleet";
import { fixture, scripted, tiny } from "@indus/testkit";
import { inGroups, liveInGroups, waitFor } from "@indus/testkit";

jest.setTimeout(120_000);

function pidsOf(fleet: EndpointFleet): number[] {
  return fleet.endpoints().flatMap((endpoint) => (endpoint.pid === undefined ? [] : [endpoint.pid]));
}

it("registers every endpoint before connecting, isolates failures, and reports status in config order", async () => {
  const servers: ServerConfig[] = [
    scripted("alpha"),
    fixture("quitter", "exit-at-once.mjs"),
    fixture("mute", "never-initializes.mjs", [], { startupTimeoutMs: 2_000 }),
    { transport: "stdio", id: "ghost", command: "indus-no-such-binary", args: [], env: {} },
    { ...scripted("bad-id"), id: "not valid!" },
    scripted("beta"),
  ];
  const fleet = await startServerFleet({ servers });
  try {
    const status = fleet.status();
    expect([...status.keys()]).toEqual(["alpha", "quitter", "mute", "ghost", "not valid!", "beta"]);
    expect(status.get("alpha")).toMatchObject({ phase: "ready" });
    expect(status.get("beta")).toMatchObject({ phase: "ready" });
    expect(status.get("quitter")?.fault?.kind).toBe("spawn-failed");
    expect(status.get("mute")?.fault?.kind).toBe("timeout");
    expect(status.get("ghost")?.fault?.kind).toBe("spawn-failed");
    expect(status.get("not valid!")?.fault?.kind).toBe("protocol");
    expect(fleet.endpoints().map((endpoint) => endpoint.config.id)).toEqual([...status.keys()]);
    await expect(fleet.endpoint("alpha")!.invoke("echo", { message: "a" })).resolves.toMatchObject({ isError: false });
    expect(fleet.endpoint("nobody")).toBeUndefined();
  } finally {
    const pids = pidsOf(fleet);
    await expect(fleet.tearDown()).resolves.toBeUndefined();
    expect(liveInGroups(pids)).toEqual([]);
  }
});

it("connects its servers at once: two that each answer only once the other has been started both come up", async () => {
  // Each server writes a file when it starts and stays silent until the other's file exists: connected one
  // after the other, the first would wait out its startup deadline and fault.
  const dir = mkdtempSync(join(tmpdir(), "fleet-meet-"));
  const meeting = (id: string, other: string) =>
    fixture(id, "modern-server.mjs", ["legacy=serve", `spawnlog=${join(dir, id)}`, `gate=${join(dir, other)}`], {
      startupTimeoutMs: 50_000,
    });
  const fleet = await startServerFleet({ servers: [meeting("first", "second"), meeting("second", "first")] });
  try {
    expect(fleet.status().get("first")).toMatchObject({ phase: "ready" });
    expect(fleet.status().get("second")).toMatchObject({ phase: "ready" });
  } finally {
    await fleet.tearDown();
    rmSync(dir, { recursive: true, force: true });
  }
});

it("lets a later duplicate id win, at its own position", async () => {
  const fleet = await startServerFleet({
    servers: [scripted("dup", [], { args: ["never-used"] }), scripted("other"), scripted("dup", ["page=50"])],
  });
  try {
    expect([...fleet.status().keys()]).toEqual(["other", "dup"]);
    expect(fleet.endpoint("dup")!.phase).toBe("ready");
    const config = fleet.endpoint("dup")!.config;
    expect(config.transport === "stdio" && config.args).toContain("page=50");
  } finally {
    await fleet.tearDown();
  }
});

it("spinUp() is not-connected before any start, and re-runs the last config after one", async () => {
  const fleet = new EndpointFleet();
  const fault = await fleet.spinUp().catch((error: unknown) => error);
  expect(isProtocolFault(fault) && fault.kind).toBe("not-connected");

  await fleet.start({ servers: [scripted("again")] });
  const first = fleet.endpoint("again")!;
  const firstPid = first.pid!;
  await fleet.spinUp();
  const second = fleet.endpoint("again")!;
  expect(second).not.toBe(first);
  expect(first.phase).toBe("closed");
  expect(second.phase).toBe("ready");
  expect(second.pid).not.toBe(firstPid);
  await fleet.tearDown();
  expect(second.phase).toBe("closed");
  await expect(fleet.tearDown()).resolves.toBeUndefined();
});

it("brings 100 configured servers up on a small machine", async () => {
  // The dependency-free fixture: what is measured is the fleet, not 100 SDK imports.
  const servers = Array.from({ length: 100 }, (_, i) => tiny(`s${i}`, { startupTimeoutMs: 90_000 }));
  const fleet = await startServerFleet({ servers });
  const pids = pidsOf(fleet);
  try {
    const phases = [...fleet.status().values()].map((status) => status.phase);
    expect(phases.filter((phase) => phase === "ready")).toHaveLength(100);
    const answers = await Promise.all(fleet.endpoints().map((endpoint) => endpoint.invoke("echo", { message: "up" })));
    expect(answers.every((answer) => !answer.isError)).toBe(true);
  } finally {
    await fleet.tearDown();
  }
  expect(liveInGroups(pids)).toEqual([]);
  await waitFor("every server process group gone", () => inGroups(pids).length === 0);
}, 240_000);
