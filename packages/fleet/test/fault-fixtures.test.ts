/**
 * Every fault fixture in one fleet with a healthy peer: each yields its
 * documented fault kind within its own deadline while the peer keeps
 * answering.
 */
import { streamableHttpServer, type ToolOutcome } from "@indus/contract";
import { mountProtocolBridge, type MountedProtocolBridge } from "@indus/fleet";
import { fixture, scripted, tiny } from "@indus/testkit";
import { startHttpFault, type HttpFaultServer } from "@indus/testkit";
import { liveInGroups, waitFor } from "@indus/testkit";

jest.setTimeout(120_000);

/**
 * The start-up deadline of the servers that never answer. "noisy" is told
 * apart from "mute" by the garbage it prints at start, which must arrive
 * before this passes: 11 servers spawning at once on a loaded runner can take
 * seconds to start, so it is long, and nothing here waits on it twice.
 */
const DEADLINE = 15_000;
let httpFaults: Record<"401" | "500" | "reset" | "silent", HttpFaultServer>;
let mounted: MountedProtocolBridge;

beforeAll(async () => {
  const [h401, h500, reset, silent] = await Promise.all(
    (["401", "500", "reset", "silent"] as const).map((mode) => startHttpFault(mode)),
  );
  httpFaults = { "401": h401!, "500": h500!, reset: reset!, silent: silent! };
  mounted = await mountProtocolBridge({
    servers: [
      tiny("healthy"),
      scripted("crashy"),
      scripted("huge"),
      scripted("lister", [], { includeTools: ["grow", "grown_*"] }),
      fixture("quitter", "exit-at-once.mjs"),
      fixture("mute", "never-initializes.mjs", [], { startupTimeoutMs: DEADLINE }),
      fixture("noisy", "garbage-stdout.mjs", [], { startupTimeoutMs: DEADLINE }),
      streamableHttpServer("denied", httpFaults["401"].url),
      streamableHttpServer("broken", httpFaults["500"].url),
      streamableHttpServer("reset", httpFaults.reset.url),
      { ...streamableHttpServer("silent", httpFaults.silent.url), startupTimeoutMs: DEADLINE },
    ],
  });
});

afterAll(async () => {
  const pids = mounted.fleet.endpoints().flatMap((endpoint) => (endpoint.pid === undefined ? [] : [endpoint.pid]));
  await mounted.fleet.tearDown();
  await Promise.all(Object.values(httpFaults).map((server) => server.close()));
  expect(liveInGroups(pids)).toEqual([]);
});

const call = (name: string, input: unknown = {}): Promise<ToolOutcome> =>
  mounted.box.runner.run({ id: name, name, input }, {});

it("classifies every startup fault", () => {
  const kinds = Object.fromEntries(
    [...mounted.fleet.status()].map(([id, status]) => [id, status.fault?.kind ?? status.phase]),
  );
  expect(kinds).toEqual({
    healthy: "ready",
    crashy: "ready",
    huge: "ready",
    lister: "ready",
    quitter: "spawn-failed",
    mute: "timeout",
    noisy: "protocol",
    denied: "unauthorized",
    broken: "transport",
    reset: "transport",
    silent: "timeout",
  });
});

it("keeps the healthy peer answering while others crash, return 50 MB and change their tools", async () => {
  let stop = false;
  const answers: ToolOutcome[] = [];
  const loop = (async () => {
    while (!stop) {
      answers.push(await call("healthy__echo", { message: "ping" }));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();

  const [crash, big, grow] = await Promise.all([
    call("crashy__crash", { code: 9 }),
    call("huge__big", { bytes: 50 * 1024 * 1024 }),
    call("lister__grow"),
  ]);
  expect(crash.isError).toBe(true);
  expect((crash.content[0] as { text: string }).text).toMatch(/^\[transport\].*exited with code 9/);
  expect(mounted.fleet.status().get("crashy")?.fault?.kind).toBe("transport");
  expect(big.isError).toBe(false);
  expect((big.content[0] as { text: string }).text).toHaveLength(50 * 1024 * 1024);
  expect(grow.isError).toBe(false);
  await waitFor("lister__grown_1 mounted", () => mounted.box.descriptors().some((d) => d.name === "lister__grown_1"));

  // The crashed server's tools now fail fast as not-connected.
  const after = await call("crashy__echo", { message: "x" });
  expect((after.content[0] as { text: string }).text).toMatch(/^\[not-connected\]/);

  stop = true;
  await loop;
  expect(answers.length).toBeGreaterThan(0);
  expect(answers.every((answer) => !answer.isError)).toBe(true);
  expect(answers[0]!.content[0]).toEqual({ type: "text", text: "healthy: ping" });
});
