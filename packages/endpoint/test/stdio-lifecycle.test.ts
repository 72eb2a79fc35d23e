import { isProtocolFault, type ProtocolFault } from "@indus/contract";
import { CLIENT_NAME, CLIENT_VERSION, createServerEndpoint, type McpServerEndpoint } from "@indus/endpoint";
import { scripted } from "./helpers/servers";
import { isAlive } from "./helpers/processes";
import { version as packageVersion } from "../package.json";

const open: McpServerEndpoint[] = [];
function track(endpoint: McpServerEndpoint): McpServerEndpoint {
  open.push(endpoint);
  return endpoint;
}
afterAll(async () => {
  await Promise.all(open.map((endpoint) => endpoint.close()));
});

function textOf(result: { content: readonly unknown[] }): string {
  return (result.content as { text?: string }[]).map((block) => block.text ?? "").join("");
}

it("walks idle → connecting → ready → closing → closed, and says who it is", async () => {
  const endpoint = track(createServerEndpoint(scripted("life")));
  expect(endpoint.phase).toBe("idle");
  const opening = endpoint.open();
  expect(endpoint.phase).toBe("connecting");
  await opening;
  expect(endpoint.phase).toBe("ready");
  expect(endpoint.serverInfo).toMatchObject({ name: "scripted-life", version: "1.2.3" });
  expect(endpoint.instructions).toContain("call echo");
  expect(endpoint.transportKind).toBe("stdio");
  const pid = endpoint.pid!;
  expect(isAlive(pid)).toBe(true);

  const who = JSON.parse(textOf(await endpoint.invoke("whoami", {})));
  expect(who).toEqual({ name: CLIENT_NAME, version: CLIENT_VERSION });
  expect(CLIENT_VERSION).toBe(packageVersion);

  const closing = endpoint.close();
  expect(endpoint.phase).toBe("closing");
  await closing;
  expect(endpoint.phase).toBe("closed");
  expect(isAlive(pid)).toBe(false);
  await expect(endpoint.close()).resolves.toBeUndefined();
  await expect(endpoint.open()).rejects.toMatchObject({ kind: "not-connected" });
  await expect(endpoint.invoke("echo", { message: "x" })).rejects.toMatchObject({ kind: "not-connected" });
});

it("shares one connect attempt among concurrent open() calls", async () => {
  const endpoint = track(createServerEndpoint(scripted("single")));
  const [a, b, c] = [endpoint.open(), endpoint.open(), endpoint.open()];
  expect(a).toBe(b);
  expect(b).toBe(c);
  await Promise.all([a, b, c]);
  expect(endpoint.stderrTail().filter((line) => line.startsWith("fixture single starting"))).toHaveLength(1);
});

it("shares one fault among concurrent open() calls and keeps returning it", async () => {
  const endpoint = track(
    createServerEndpoint({ transport: "stdio", id: "nope", command: "/definitely/not/here", args: [], env: {} }),
  );
  const results = await Promise.allSettled([endpoint.open(), endpoint.open()]);
  const faults = results.map((r) => (r as PromiseRejectedResult).reason as ProtocolFault);
  expect(faults[0]).toBe(faults[1]);
  expect(isProtocolFault(faults[0])).toBe(true);
  expect(faults[0]!.kind).toBe("spawn-failed");
  expect(endpoint.phase).toBe("faulted");
  await expect(endpoint.open()).rejects.toBe(faults[0]);
  expect(endpoint.status()).toEqual({ server: "nope", phase: "faulted", toolCount: 0, fault: faults[0] });
  await endpoint.close();
  expect(endpoint.phase).toBe("faulted");
});

it("rejects an invalid server id as a protocol fault at open, without throwing on create", async () => {
  const endpoint = track(createServerEndpoint({ ...scripted("ok"), id: "9 bad id" }));
  await expect(endpoint.open()).rejects.toMatchObject({ kind: "protocol" });
  expect(endpoint.phase).toBe("faulted");
});

it("closing while connecting lands in closed and fails the open as not-connected", async () => {
  const endpoint = track(createServerEndpoint(scripted("early")));
  const opening = endpoint.open();
  const closing = endpoint.close();
  await expect(opening).rejects.toMatchObject({ kind: "not-connected" });
  await closing;
  expect(endpoint.phase).toBe("closed");
  if (endpoint.pid !== undefined) expect(isAlive(endpoint.pid)).toBe(false);
});

it("close() on an idle endpoint lands in closed", async () => {
  const endpoint = createServerEndpoint(scripted("idle"));
  await endpoint.close();
  expect(endpoint.phase).toBe("closed");
});
