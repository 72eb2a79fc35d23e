import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createServerEndpoint, type McpServerEndpoint } from "@indus/endpoint";
import { scripted } from "./helpers/servers";
import { isAlive, waitFor } from "./helpers/processes";

jest.setTimeout(60_000);

const opened: McpServerEndpoint[] = [];
afterAll(() => Promise.all(opened.map((endpoint) => endpoint.close())));
let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "indus-reconnect-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it("is off by default: a crash leaves the endpoint faulted", async () => {
  const endpoint = createServerEndpoint(scripted("once"));
  opened.push(endpoint);
  await endpoint.open();
  await endpoint.invoke("crash", { code: 2 }).catch(() => undefined);
  expect(endpoint.phase).toBe("faulted");
});

it("reconnects with backoff when configured, and follows the new tool list", async () => {
  const endpoint = createServerEndpoint(
    scripted("phoenix", [], { reconnect: { maxAttempts: 3, initialDelayMs: 100, maxDelayMs: 1_000 } }),
  );
  opened.push(endpoint);
  await endpoint.open();
  await endpoint.listTools();
  const firstPid = endpoint.pid!;
  const fault = await endpoint.invoke("crash", { code: 5 }).catch((error: unknown) => error);
  expect(fault).toMatchObject({ kind: "transport" });
  expect(endpoint.phase).toBe("connecting");
  await expect(endpoint.invoke("echo", { message: "x" })).rejects.toMatchObject({ kind: "not-connected" });
  await endpoint.open(); // waits for the reconnect
  expect(endpoint.phase).toBe("ready");
  expect(endpoint.fault).toBeUndefined();
  expect(endpoint.pid).not.toBe(firstPid);
  expect(isAlive(firstPid)).toBe(false);
  await expect(endpoint.invoke("echo", { message: "again" })).resolves.toMatchObject({ isError: false });
  expect((await endpoint.listTools()).length).toBeGreaterThan(10);
});

it("gives up after maxAttempts and keeps the last fault", async () => {
  const marker = path.join(dir, "no-restart");
  const endpoint = createServerEndpoint(
    scripted("doomed", [`die-if=${marker}`], { reconnect: { maxAttempts: 2, initialDelayMs: 50, maxDelayMs: 100 } }),
  );
  opened.push(endpoint);
  await endpoint.open();
  fs.writeFileSync(marker, "");
  await endpoint.invoke("crash", { code: 1 }).catch(() => undefined);
  const fault = await endpoint.open().catch((error: unknown) => error);
  expect(fault).toMatchObject({ kind: "spawn-failed" });
  expect((fault as Error).message).toContain("exited with code 4");
  expect(endpoint.phase).toBe("faulted");
});

it("close() during a reconnect lands in closed", async () => {
  const endpoint = createServerEndpoint(
    scripted("interrupted", [], { reconnect: { maxAttempts: 5, initialDelayMs: 2_000, maxDelayMs: 2_000 } }),
  );
  await endpoint.open();
  await endpoint.invoke("crash", { code: 1 }).catch(() => undefined);
  expect(endpoint.phase).toBe("connecting");
  const waiting = endpoint.open();
  await endpoint.close();
  await expect(waiting).rejects.toMatchObject({ kind: "not-connected" });
  expect(endpoint.phase).toBe("closed");
});

it("always drains stderr: a server that floods it still answers", async () => {
  const endpoint = createServerEndpoint(scripted("flood", ["stderr-flood=4000000"]), undefined, { stderrLines: 10 });
  opened.push(endpoint);
  await endpoint.open();
  await expect(endpoint.invoke("echo", { message: "heard" })).resolves.toMatchObject({ isError: false });
  await waitFor("the server logged 'flood done'", () => endpoint.stderrTail().includes("flood done"));
  expect(endpoint.stderrTail().length).toBeLessThanOrEqual(10);
});
