/**
 * Remembered era verdicts expire by why they were stored: a legacy verdict
 * from an unanswered probe (a slow start) is re-probed after a day, one from
 * a server that exits on the probe is kept for good. Time moves by writing
 * an older `storedAt` into the state file, as a day-old run would have left
 * it; spawns are counted by the fixtures themselves.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { EraVerdict, ServerConfig } from "@indus/contract";
import { fileEraVerdictStore, type EndpointOptions } from "@indus/endpoint";
import { isVerdictTrusted, probeOutcome } from "../src/era/era-verdict-expiry";
import { runOnce, spawnCount } from "./helpers/era-runs";
import { fixture, tiny } from "./helpers/servers";

const HOUR_MS = 3_600_000;
const dir = mkdtempSync(path.join(os.tmpdir(), "era-expiry-"));
const readVerdicts = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Record<string, EraVerdict>;
const theVerdict = (file: string) => Object.values(readVerdicts(file))[0];

/** Rewrite every verdict in `file`, as an older run (or an older indus) would have left it. */
function rewrite(file: string, edit: (verdict: EraVerdict) => object): void {
  const verdicts = readVerdicts(file);
  const edited = Object.fromEntries(Object.entries(verdicts).map(([identity, verdict]) => [identity, edit(verdict)]));
  writeFileSync(file, JSON.stringify(edited));
}
const agedBy = (ms: number) => (verdict: EraVerdict) => ({ ...verdict, storedAt: verdict.storedAt - ms });

/** One run with its verdicts in `file`. */
const run = (config: ServerConfig, file: string, options: EndpointOptions = {}) =>
  runOnce(config, { eraVerdicts: fileEraVerdictStore(file), ...options });

it("a both-eras server whose probe went unanswered is legacy for a day, then re-probed into the 2026 era", async () => {
  const file = path.join(dir, "slow.json");
  const slowStart = path.join(dir, "slow-start");
  writeFileSync(slowStart, "");
  const config = fixture("slow", "modern-server.mjs", ["legacy=serve", "delay=1200", `slow-while=${slowStart}`]);
  // A start slower than the probe wait (npx installing it): the probe goes unanswered.
  expect(await run(config, file, { timeouts: { eraProbeMs: 400 } })).toBe("legacy");
  expect(theVerdict(file)).toEqual(expect.objectContaining({ kind: "legacy", reason: "unanswered" }));
  // From now on the same server starts at once (installed).
  rmSync(slowStart);
  // Within the day the verdict stands: no probe, though one would now be answered.
  expect(await run(config, file, { timeouts: { eraProbeMs: 5_000 } })).toBe("legacy");
  rewrite(file, agedBy(23 * HOUR_MS));
  expect(await run(config, file, { timeouts: { eraProbeMs: 5_000 } })).toBe("legacy");
  rewrite(file, agedBy(2 * HOUR_MS));
  expect(await run(config, file, { timeouts: { eraProbeMs: 5_000 } })).toBe("2026-07-28");
  expect(theVerdict(file)).toEqual(expect.objectContaining({ kind: "modern" }));
});

it("a server that exits on the unknown probe keeps its legacy verdict however old: spawned once per run", async () => {
  const log = path.join(dir, "rmcp-spawns");
  const file = path.join(dir, "rmcp.json");
  const config = fixture("rmcp", "rmcp-style-server.mjs", [log]);
  expect(await run(config, file)).toBe("legacy");
  expect(spawnCount(log)).toBe(2); // the probe kills it; once more as legacy
  expect(theVerdict(file)).toEqual(expect.objectContaining({ kind: "legacy", reason: "exited" }));
  rewrite(file, (verdict) => ({ ...verdict, storedAt: 0 }));
  expect(await run(config, file)).toBe("legacy");
  expect(spawnCount(log)).toBe(3);
});

it("a 2025 server that answered the probe is re-checked after a week, not before", async () => {
  const file = path.join(dir, "tiny.json");
  const config = tiny("tiny");
  expect(await run(config, file)).toBe("legacy");
  expect(theVerdict(file)).toEqual(expect.objectContaining({ kind: "legacy", reason: "answered" }));
  rewrite(file, agedBy(6 * 24 * HOUR_MS));
  const sixDaysOld = theVerdict(file)?.storedAt;
  expect(await run(config, file)).toBe("legacy");
  expect(theVerdict(file)?.storedAt).toBe(sixDaysOld); // used, not re-probed
  rewrite(file, agedBy(2 * 24 * HOUR_MS));
  const before = Date.now();
  expect(await run(config, file)).toBe("legacy");
  expect(theVerdict(file)?.storedAt).toBeGreaterThanOrEqual(before); // probed and stored afresh
  expect(theVerdict(file)).toEqual(expect.objectContaining({ reason: "answered" }));
});

it("verdict files written before reasons existed still load; their legacy verdicts expire after a day", async () => {
  const log = path.join(dir, "old-spawns");
  const file = path.join(dir, "old.json");
  const config = fixture("old", "rmcp-style-server.mjs", [log]);
  expect(await run(config, file)).toBe("legacy");
  const { reason: _dropped, ...withoutReason } = theVerdict(file) as EraVerdict & { reason?: string };
  rewrite(file, () => ({ ...withoutReason, storedAt: Date.now() - HOUR_MS }));
  expect(await run(config, file)).toBe("legacy");
  expect(spawnCount(log)).toBe(3); // the old verdict was used: one spawn
  rewrite(file, agedBy(24 * HOUR_MS));
  expect(await run(config, file)).toBe("legacy");
  expect(spawnCount(log)).toBe(5); // expired: probed (and killed) once more
  expect(theVerdict(file)).toEqual(expect.objectContaining({ reason: "exited" }));
});

describe("the trust horizons (clock given)", () => {
  const now = 1_000 * 24 * HOUR_MS;
  const legacy = (reason: string | undefined, age: number) =>
    ({ kind: "legacy", storedAt: now - age, ...(reason ? { reason } : {}) }) as EraVerdict;

  it("keeps exited and modern verdicts for good, answered ones a week, the rest a day", () => {
    expect(isVerdictTrusted(legacy("exited", 10_000 * 24 * HOUR_MS), now)).toBe(true);
    expect(isVerdictTrusted({ kind: "modern", discover: {}, storedAt: 0 }, now)).toBe(true);
    expect(isVerdictTrusted(legacy("answered", 7 * 24 * HOUR_MS - 1), now)).toBe(true);
    expect(isVerdictTrusted(legacy("answered", 7 * 24 * HOUR_MS), now)).toBe(false);
    for (const reason of ["unanswered", "died", undefined]) {
      expect(isVerdictTrusted(legacy(reason, 24 * HOUR_MS - 1), now)).toBe(true);
      expect(isVerdictTrusted(legacy(reason, 24 * HOUR_MS), now)).toBe(false);
    }
  });

  it("does not trust a legacy verdict stored in the future (a clock set back)", () => {
    expect(isVerdictTrusted(legacy("answered", -HOUR_MS), now)).toBe(false);
  });

  it("reads a probe that lasted the whole wait as unanswered", () => {
    expect(probeOutcome(399, 400)).toBe("answered");
    expect(probeOutcome(400, 400)).toBe("unanswered");
  });
});
