import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { liveProcessGroups } from "@indus/endpoint";
import { trackEndpoints } from "./helpers/tracked";
import { fixture, scripted, FIXTURES } from "./helpers/servers";
import { inGroups, isAlive, liveInGroups, waitFor } from "./helpers/processes";

jest.setTimeout(60_000);

const make = trackEndpoints();

it("reports a server that exits at once as spawn-failed, quoting its exit code and stderr", async () => {
  const endpoint = make(fixture("quitter", "exit-at-once.mjs"));
  const fault = await endpoint.open().catch((error: unknown) => error);
  expect(fault).toMatchObject({ kind: "spawn-failed" });
  expect((fault as Error).message).toContain("exited with code 3");
  expect((fault as Error).message).toContain("DATABASE_URL is not set");
  expect(endpoint.stderrTail()).toEqual(["fatal: DATABASE_URL is not set"]);
});

it("reports a command that does not exist as spawn-failed", async () => {
  const endpoint = make({ transport: "stdio", id: "ghost", command: "indus-no-such-binary", args: [], env: {} });
  const fault = await endpoint.open().catch((error: unknown) => error);
  expect(fault).toMatchObject({ kind: "spawn-failed" });
  expect((fault as Error).message).toBe(
    'server "ghost" could not be started: "indus-no-such-binary" was not found (is it installed and on PATH?).',
  );
});

it("reports a command that is not executable as spawn-failed, naming it", async () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "indus-noexec-")), "server.sh");
  fs.writeFileSync(file, "#!/bin/sh\n", { mode: 0o644 });
  const endpoint = make({ transport: "stdio", id: "noexec", command: file, args: [], env: {} });
  const fault = await endpoint.open().catch((error: unknown) => error);
  expect(fault).toMatchObject({ kind: "spawn-failed" });
  expect((fault as Error).message).toContain(`"${file}" is not executable (EACCES)`);
});

it("fails calls in flight promptly when the server crashes, naming the exit code and stderr", async () => {
  const endpoint = make(scripted("crashy"));
  await endpoint.open();
  // The slow call would succeed after 30 s: its failing with the crash's exit code shows it failed on the crash.
  const slow = endpoint.invoke("slow", { ms: 30_000 });
  const crash = endpoint.invoke("crash", { code: 7 });
  const [slowFault, crashFault] = await Promise.all([slow.catch((e: unknown) => e), crash.catch((e: unknown) => e)]);
  for (const fault of [slowFault, crashFault]) {
    expect(fault).toMatchObject({ kind: "transport" });
    expect((fault as Error).message).toContain("exited with code 7");
    expect((fault as Error).message).toContain("crashing on purpose");
  }
  expect(endpoint.phase).toBe("faulted");
  expect(endpoint.fault).toBe(slowFault);
  await expect(endpoint.invoke("echo", { message: "x" })).rejects.toMatchObject({ kind: "not-connected" });
  await expect(endpoint.open()).rejects.toBe(slowFault);
});

it("names the signal when the server is killed", async () => {
  const endpoint = make(scripted("killed"));
  await endpoint.open();
  const fault = await endpoint.invoke("kill_self", { signal: "SIGKILL" }).catch((e: unknown) => e);
  expect(fault).toMatchObject({ kind: "transport" });
  expect((fault as Error).message).toContain("killed by SIGKILL");
});

it("delivers a 50 MB result intact while another call keeps answering", async () => {
  const endpoint = make(scripted("huge"));
  await endpoint.open();
  const bytes = 50 * 1024 * 1024;
  const big = endpoint.invoke("big", { bytes }, { timeoutMs: 45_000 });
  const echo = await endpoint.invoke("echo", { message: "still here" });
  expect(echo.content[0]).toEqual({ type: "text", text: "Echo from huge: still here" });
  const result = await big;
  expect((result.content[0] as { text: string }).text).toHaveLength(bytes);
});

it("delivers a multi-byte result over the streaming threshold intact, characters split across chunks", async () => {
  const endpoint = make(scripted("wide"));
  await endpoint.open();
  const unit = 'é\u{1F600}x"\\\n';
  const chars = 3 * 1024 * 1024;
  const result = await endpoint.invoke("big", { bytes: chars, unit }, { timeoutMs: 45_000 });
  const expected = unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);
  expect((result.content[0] as { text: string }).text === expected).toBe(true);
});

it("skips a 2 MB line of broken JSON before the server speaks, and serves", async () => {
  const endpoint = make(scripted("chatty", ["garbage-bytes=2097152"]));
  await endpoint.open();
  await expect(endpoint.invoke("echo", { message: "ok" })).resolves.toMatchObject({ isError: false });
});

it("faults the endpoint as protocol when a message passes maxMessageBytes", async () => {
  const endpoint = make(scripted("capped"), undefined, { maxMessageBytes: 1024 * 1024 });
  await endpoint.open();
  const fault = await endpoint.invoke("big", { bytes: 2 * 1024 * 1024 }).catch((e: unknown) => e);
  expect(fault).toMatchObject({ kind: "protocol" });
  expect((fault as Error).message).toContain("over 1048576 bytes");
  expect(endpoint.phase).toBe("faulted");
  await waitFor("the server process gone after the fault", () => !isAlive(endpoint.pid!));
});

it("keeps stderr off the terminal: bounded in memory and appended to <logDir>/<server>.log", async () => {
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "indus-endpoint-log-"));
  try {
    const endpoint = make(scripted("logged"), undefined, { logDir, stderrLines: 2 });
    await endpoint.open();
    await endpoint.invoke("slow", { ms: 5_000 }, { timeoutMs: 200 }).catch(() => undefined);
    await waitFor("the server logged the cancel", () =>
      endpoint.stderrTail().some((line) => line.startsWith("cancelled")),
    );
    await endpoint.close();
    expect(endpoint.stderrTail().length).toBeLessThanOrEqual(2);
    const log = fs.readFileSync(path.join(logDir, "logged.log"), "utf8");
    expect(log).toContain("fixture logged starting");
    expect(log).toContain("cancelled");
  } finally {
    fs.rmSync(logDir, { recursive: true, force: true });
  }
});

describe("shutdown reaches the whole process group", () => {
  it("escalates to SIGKILL for a server that ignores EOF and SIGTERM", async () => {
    const endpoint = make(scripted("stubborn", ["ignore-term=1"]), undefined, { closeGraceMs: 1_000 });
    await endpoint.open();
    const pid = endpoint.pid!;
    await endpoint.close(); // ends at all: the server never exits by itself
    expect(isAlive(pid)).toBe(false);
    expect(endpoint.stderrTail()).toContain("ignoring SIGTERM");
  });

  it("takes down a grandchild the server started", async () => {
    const endpoint = make(scripted("parent", ["spawn-child=1"]));
    await endpoint.open();
    const pid = endpoint.pid!;
    const grandchild = Number(
      endpoint
        .stderrTail()
        .find((line) => line.startsWith("grandchild "))!
        .split(" ")[1],
    );
    expect(isAlive(grandchild)).toBe(true);
    await endpoint.close();
    expect(liveInGroups([pid])).toEqual([]);
    await waitFor("the process group gone", () => inGroups([pid]).length === 0);
    expect(isAlive(grandchild)).toBe(false);
  });

  it("leaves nothing behind a `sh -c` wrapper", async () => {
    const server = path.join(FIXTURES, "scripted-server.mjs");
    const endpoint = make({
      transport: "stdio",
      id: "wrapped",
      command: "sh",
      // `; true` keeps sh alive as the parent, so the server is a grandchild.
      args: ["-c", `"${process.execPath}" "${server}" name=wrapped; true`],
      env: {},
    });
    await endpoint.open();
    const pid = endpoint.pid!;
    expect(inGroups([pid]).length).toBeGreaterThanOrEqual(2);
    await expect(endpoint.invoke("echo", { message: "via sh" })).resolves.toMatchObject({ isError: false });
    await endpoint.close();
    expect(liveInGroups([pid])).toEqual([]);
    await waitFor("the process group gone", () => inGroups([pid]).length === 0);
    expect(liveProcessGroups()).not.toContain(pid);
  });

  it("cleans up a dead wrapper's grandchildren after a crash, without close()", async () => {
    const endpoint = make(scripted("orphaner", ["spawn-child=1"]), undefined, { closeGraceMs: 300 });
    await endpoint.open();
    const pid = endpoint.pid!;
    expect(endpoint.stderrTail().some((line) => line.startsWith("grandchild "))).toBe(true);
    await endpoint.invoke("crash", { code: 1 }).catch(() => undefined);
    expect(endpoint.phase).toBe("faulted");
    await waitFor("no live process left in the group", () => liveInGroups([pid]).length === 0);
    await waitFor("the process group gone", () => inGroups([pid]).length === 0);
  });
});
