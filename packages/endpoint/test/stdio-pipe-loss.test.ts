import { trackEndpoints } from "./helpers/tracked";
import { fixture, scripted } from "./helpers/servers";
import { eventually, isAlive, liveInGroups } from "./helpers/processes";

jest.setTimeout(30_000);

const make = trackEndpoints();

it("fails a call at once when the server closes its stdout but keeps running, and takes the process down", async () => {
  const endpoint = make(fixture("mute", "closes-stdout.mjs"), undefined, { closeGraceMs: 200 });
  await endpoint.open();
  const started = Date.now();
  const fault = await endpoint.invoke("hang", {}).catch((error: unknown) => error);
  expect(Date.now() - started).toBeLessThan(2_000);
  expect(fault).toMatchObject({ kind: "transport" });
  expect((fault as Error).message).toContain('server "mute" closed its stdout while still running');
  expect((fault as Error).message).toContain("closing stdout: during a call");
  expect(endpoint.phase).toBe("faulted");
  const pid = endpoint.pid ?? 0;
  await eventually(() => !isAlive(pid), 3_000);
});

it("fails the handshake at once when the server closes its stdout before answering initialize", async () => {
  const endpoint = make(fixture("mute-early", "closes-stdout.mjs", ["at=start"]), undefined, { closeGraceMs: 200 });
  const started = Date.now();
  const fault = await endpoint.open().catch((error: unknown) => error);
  expect(Date.now() - started).toBeLessThan(2_000);
  expect(fault).toMatchObject({ kind: "spawn-failed" });
  expect((fault as Error).message).toContain('server "mute-early" closed its stdout while still running');
  expect((fault as Error).message).toContain("closing stdout: before initialize");
});

it("closeAllServerProcesses ends every spawned server, still-connecting ones too, within the given grace", async () => {
  const { closeAllServerProcesses } = await import("@indus/endpoint");
  const stubborn = make(scripted("stubborn", ["ignore-term=1", "spawn-child=1"]), undefined, { closeGraceMs: 30_000 });
  await stubborn.open();
  const connecting = make(fixture("mute-start", "never-initializes.mjs"), undefined, { closeGraceMs: 30_000 });
  const opening = connecting.open().catch(() => undefined);
  await eventually(() => connecting.pid !== undefined, 3_000);
  const groups = [stubborn.pid ?? 0, connecting.pid ?? 0];
  await eventually(() => liveInGroups(groups).length >= 3, 5_000);
  const started = Date.now();
  await closeAllServerProcesses({ graceMs: 300 });
  expect(Date.now() - started).toBeLessThan(2_500);
  expect(liveInGroups(groups)).toEqual([]);
  await opening;
});
