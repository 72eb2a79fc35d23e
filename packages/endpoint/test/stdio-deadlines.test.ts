/**
 * An endpoint's deadlines against real stdio servers. The call deadlines run
 * on Jest's clock, moved by the test (per progress report, or in small steps
 * until the call settles): which deadline fires, and whether progress resets
 * one, must not depend on how much real time a busy machine lets pass.
 */
import type { McpServerEndpoint } from "@indus/endpoint";
import { REAL_EVENT_LOOP } from "@indus/testkit";
import { trackEndpoints } from "./helpers/tracked";
import type { ToolProgress } from "@indus/contract";
import { fixture, scripted } from "./helpers/servers";
import { isAlive, waitFor } from "./helpers/processes";

const make = trackEndpoints();
/** Real time, kept before any test fakes the clock: what the server's process lives by. */
const realSetTimeout = setTimeout;
const realPause = (ms: number) => new Promise((resolve) => realSetTimeout(resolve, ms));
const FAKE_CLOCK = { doNotFake: [...REAL_EVENT_LOOP] };

/**
 * Lets real I/O in and moves Jest's clock by `step()` each turn until `call`
 * settles; the outcome, resolved or rejected, as a value.
 */
async function driveClock(call: Promise<unknown>, step: () => number): Promise<unknown> {
  let settled = false;
  const outcome = call.then(
    (value) => value,
    (error: unknown) => error,
  );
  void outcome.finally(() => (settled = true));
  while (!settled) {
    // Synchronous: no I/O is read while the clock moves, so a report never lands at a time in between.
    jest.advanceTimersByTime(step());
    await realPause(10);
  }
  return outcome;
}

afterEach(() => {
  jest.useRealTimers();
});

/**
 * Moves the clock `ms` once per batch of fresh progress reports (each resets
 * the call's deadline when it arrives), never twice after one: reports read
 * together on a busy machine count as one.
 */
function afterEachReport(count: () => number, ms: number) {
  let seen = 0;
  const moves = { moves: 0, step: () => 0 };
  moves.step = () => {
    if (count() === seen) return 0;
    seen = count();
    moves.moves += 1;
    return ms;
  };
  return moves;
}

const cancels = (endpoint: McpServerEndpoint) =>
  endpoint.stderrTail().filter((line) => line.startsWith("cancelled ")).length;

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
  jest.useFakeTimers(FAKE_CLOCK);
  const endpoint = make(fixture("noisy", "garbage-stdout.mjs", [], { startupTimeoutMs: 1_500 }));
  const opening = endpoint.open();
  while (!endpoint.stderrTail().some((line) => line.includes("wrote two log lines"))) await realPause(10);
  // Its stdout lines went into the pipe before that stderr line: a few turns of the loop read them.
  for (let turn = 0; turn < 3; turn += 1) await new Promise((resolve) => setImmediate(resolve));
  const fault = await driveClock(opening, () => 500);
  // Its process is put down on the same clock (a kill's escalation is a timer).
  await driveClock(endpoint.close(), () => 500);
  jest.useRealTimers();
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
    jest.useFakeTimers(FAKE_CLOCK);
    const fault = await driveClock(endpoint.invoke("slow", { ms: 600_000 }), () => 100);
    jest.useRealTimers();
    expect(fault).toMatchObject({ kind: "timeout" });
    expect((fault as Error).message).toContain("timed out after 1000 ms"); // the call's deadline, not the total
    await waitFor("the server logged the cancel", () => cancels(endpoint) > 0);
    expect(endpoint.phase).toBe("ready");
  });

  it("lets progress reset the deadline", async () => {
    jest.useFakeTimers(FAKE_CLOCK);
    const started = Date.now();
    const seen: ToolProgress[] = [];
    const controller = new AbortController();
    const call = endpoint.invoke(
      "slow",
      { ms: 600_000, every: 200 },
      { onProgress: (p) => seen.push(p), signal: controller.signal },
    );
    // 900 ms of the call's 1000 pass after each fresh report, four times: 3.6 s, under the 4 s total.
    const afterReports = afterEachReport(() => seen.length, 900);
    const outcome = driveClock(call, () => (afterReports.moves < 4 ? afterReports.step() : (controller.abort(), 0)));
    expect(await outcome).toMatchObject({ kind: "tool-error" }); // our abort, not a deadline
    expect(Date.now() - started).toBe(3_600);
    expect(seen[0]).toMatchObject({ progress: 1, message: "step 1" });
  });

  it("bounds a call that keeps reporting progress by the total deadline", async () => {
    const before = cancels(endpoint);
    jest.useFakeTimers(FAKE_CLOCK);
    const started = Date.now();
    let reports = 0;
    const call = endpoint.invoke("slow", { ms: 600_000, every: 200 }, { onProgress: () => (reports += 1) });
    const afterReports = afterEachReport(() => reports, 900);
    const fault = await driveClock(call, () => afterReports.step());
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_000);
    jest.useRealTimers();
    expect(fault).toMatchObject({ kind: "timeout" });
    expect((fault as Error).message).toContain("total");
    await waitFor("the server logged one more cancel", () => cancels(endpoint) > before);
  });

  it("a per-call timeoutMs overrides the endpoint's", async () => {
    jest.useFakeTimers(FAKE_CLOCK);
    const fault = await driveClock(endpoint.invoke("slow", { ms: 600_000 }, { timeoutMs: 5_000 }), () => 100);
    jest.useRealTimers();
    expect(fault).toMatchObject({ kind: "timeout" });
    expect((fault as Error).message).toContain("timed out after 5000 ms");
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
