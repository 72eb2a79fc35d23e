import type { McpServerEndpoint } from "@indus/endpoint";
import { trackEndpoints } from "./helpers/tracked";
import type { ToolProgress } from "@indus/contract";
import { fixture, scripted } from "./helpers/servers";
import { isAlive, waitFor } from "./helpers/processes";

const make = trackEndpoints();

it("times out a server that never answers initialize, and kills it", async () => {
  const endpoint = make(fixture("mute", "never-initializes.mjs", [], { startupTimeoutMs: 1_500 }));
  const started = Date.now();
  await expect(endpoint.open()).rejects.toMatchObject({ kind: "timeout" });
  const elapsed = Date.now() - started;
  expect(elapsed).toBeGreaterThanOrEqual(1_400); // not before its deadline (a bound load cannot break)
  expect(endpoint.phase).toBe("faulted");
  expect(endpoint.fault?.message).toContain("saying nothing");
  await waitFor("the server process killed", () => !isAlive(endpoint.pid!));
});

it("reports a server that writes garbage on stdout as a protocol fault", async () => {
  const endpoint = make(fixture("noisy", "garbage-stdout.mjs", [], { startupTimeoutMs: 1_500 }));
  const fault = await endpoint.open().catch((error: unknown) => error);
  expect(fault).toMatchObject({ kind: "protocol" });
  expect((fault as Error).message).toContain("non-JSON-RPC");
  expect((fault as Error).message).toContain("Server starting on stdout");
});

it("tolerates a few log lines on stdout before the server speaks", async () => {
  const endpoint = make(scripted("chatty", ["garbage=3"]));
  await endpoint.open();
  await expect(endpoint.invoke("echo", { message: "ok" })).resolves.toMatchObject({ isError: false });
});

describe("call deadlines", () => {
  let endpoint: McpServerEndpoint;
  beforeAll(async () => {
    endpoint = make(scripted("clock", [], { toolTimeoutMs: 1_000 }), undefined, { timeouts: { callTotalMs: 4_000 } });
    await endpoint.open();
  });

  it("times out a call and sends notifications/cancelled", async () => {
    const fault = await endpoint.invoke("slow", { ms: 20_000 }).catch((error: unknown) => error);
    expect(fault).toMatchObject({ kind: "timeout" });
    expect((fault as Error).message).toContain("timed out after 1000 ms"); // the call's deadline, not the total
    await waitFor("the server logged the cancel", () =>
      endpoint.stderrTail().some((line) => line.startsWith("cancelled ")),
    );
    expect(endpoint.phase).toBe("ready");
  });

  // The deadlines run on Jest's clock (the server and the pipe are real): each test moves the clock as far as
  // it says, so how much real time a busy machine lets pass between two reports changes nothing.
  const onJestClock = () => jest.useFakeTimers({ doNotFake: ["nextTick", "queueMicrotask", "setImmediate"] });
  afterEach(() => jest.useRealTimers());

  it("lets progress reset the deadline", async () => {
    onJestClock();
    const seen: ToolProgress[] = [];
    // 900 ms after each of the first three reports: 2.7 s in all, past the 1 s deadline, inside the 4 s total.
    const onProgress = (p: ToolProgress) => seen.push(p) <= 3 && jest.advanceTimersByTime(900);
    const result = await endpoint.invoke("slow", { ms: 2_500, every: 200 }, { onProgress });
    expect(result.isError).toBe(false);
    expect(seen.length).toBeGreaterThan(3);
    expect(seen[0]).toMatchObject({ progress: 1, message: "step 1" });
  });

  it("bounds a call that keeps reporting progress by the total deadline", async () => {
    const before = endpoint.stderrTail().filter((line) => line.startsWith("cancelled ")).length;
    const started = Date.now();
    const fault = await endpoint.invoke("slow", { ms: 30_000, every: 200 }).catch((error: unknown) => error);
    expect(fault).toMatchObject({ kind: "timeout" });
    expect((fault as Error).message).toContain("total");
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_900);
    await waitFor(
      "the server logged one more cancel",
      () => endpoint.stderrTail().filter((line) => line.startsWith("cancelled ")).length > before,
    );
  });

  it("a per-call timeoutMs overrides the endpoint's", async () => {
    onJestClock();
    // 1.5 s after the first report: past the endpoint's 1 s, inside the call's 5 s (and the 4 s total).
    const onProgress = (p: ToolProgress) => p.progress === 1 && jest.advanceTimersByTime(1_500);
    await expect(
      endpoint.invoke("slow", { ms: 1_500, every: 500 }, { timeoutMs: 5_000, onProgress }),
    ).resolves.toMatchObject({ isError: false });
  });

  it("cancels on abort, telling the server", async () => {
    const before = endpoint.stderrTail().filter((line) => line.startsWith("cancelled ")).length;
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    await expect(
      endpoint.invoke("slow", { ms: 20_000 }, { signal: controller.signal, timeoutMs: 30_000 }),
    ).rejects.toMatchObject({
      kind: "tool-error",
    });
    await waitFor(
      "the server logged one more cancel",
      () => endpoint.stderrTail().filter((line) => line.startsWith("cancelled ")).length > before,
    );
    // An already-aborted signal fails at once.
    await expect(endpoint.invoke("echo", { message: "x" }, { signal: AbortSignal.abort() })).rejects.toMatchObject({
      kind: "tool-error",
    });
    expect(endpoint.phase).toBe("ready");
  });
});
