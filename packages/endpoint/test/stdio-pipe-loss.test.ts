import { trackEndpoints } from "./helpers/tracked";
import { fixture } from "./helpers/servers";
import { eventually, isAlive } from "./helpers/processes";

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
