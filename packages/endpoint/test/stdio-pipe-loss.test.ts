import { trackEndpoints } from "./helpers/tracked";
import { fixture, scripted } from "./helpers/servers";
import { isAlive, liveInGroups, waitFor } from "./helpers/processes";

const make = trackEndpoints();
/** Deadlines far past the test's ceiling: a fault that comes at all did not come from one of them. */
const NO_DEADLINE = { startupMs: 600_000, callMs: 600_000 };

it("fails a call at once when the server closes its stdout but keeps running, and takes the process down", async () => {
  const endpoint = make(fixture("mute", "closes-stdout.mjs"), undefined, { closeGraceMs: 200, timeouts: NO_DEADLINE });
  await endpoint.open();
  const fault = await endpoint.invoke("hang", {}).catch((error: unknown) => error);
  expect(fault).toMatchObject({ kind: "transport" });
  expect((fault as Error).message).toContain('server "mute" closed its stdout while still running');
  expect((fault as Error).message).toContain("closing stdout: during a call");
  expect(endpoint.phase).toBe("faulted");
  const pid = endpoint.pid ?? 0;
  await waitFor("the server process taken down", () => !isAlive(pid));
});

it("fails the handshake at once when the server closes its stdout before answering initialize", async () => {
  const endpoint = make(fixture("mute-early", "closes-stdout.mjs", ["at=start"]), undefined, {
    closeGraceMs: 200,
    timeouts: NO_DEADLINE,
  });
  const fault = await endpoint.open().catch((error: unknown) => error);
  expect(fault).toMatchObject({ kind: "spawn-failed" });
  expect((fault as Error).message).toContain('server "mute-early" closed its stdout while still running');
  expect((fault as Error).message).toContain("closing stdout: before initialize");
});

// The servers' own grace is far past the test's ceiling: ending at all shows the 300 ms one given here was used.
it("closeAllServerProcesses ends every spawned server, still-connecting ones too, within the given grace", async () => {
  const { closeAllServerProcesses } = await import("@indus/endpoint");
  const stubborn = make(scripted("stubborn", ["ignore-term=1", "spawn-child=1"]), undefined, { closeGraceMs: 600_000 });
  await stubborn.open();
  const connecting = make(fixture("mute-start", "never-initializes.mjs"), undefined, {
    closeGraceMs: 600_000,
    timeouts: NO_DEADLINE,
  });
  const opening = connecting.open().catch(() => undefined);
  await waitFor("the still-connecting server spawned", () => connecting.pid !== undefined);
  const groups = [stubborn.pid ?? 0, connecting.pid ?? 0];
  await waitFor("both servers and the stubborn one's child alive", () => liveInGroups(groups).length >= 3);
  await closeAllServerProcesses({ graceMs: 300 });
  expect(liveInGroups(groups)).toEqual([]);
  await opening;
});
