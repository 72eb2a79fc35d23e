/**
 * `auto` when the first answer misleads: a server that dies whatever it is
 * sent, a modern-only server that starts too slowly to answer the era probe,
 * and a remembered verdict that went stale. Spawns are counted by the
 * fixtures themselves (they append their pid to a file).
 */
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { EraVerdict, EraVerdictStore } from "@indus/contract";
import { fileEraVerdictStore } from "@indus/endpoint";
import { runOnce, spawnCount } from "./helpers/era-runs";
import { fixture } from "./helpers/servers";

const dir = mkdtempSync(path.join(os.tmpdir(), "era-recovery-"));
const verdicts = (file: string) => Object.values(JSON.parse(readFileSync(file, "utf8")) as object);

it("a server that dies at once is spawned twice on its first run only, then once per run", async () => {
  const log = path.join(dir, "dies-spawns");
  const file = path.join(dir, "verdicts-dies.json");
  const config = fixture("dies", "exit-at-once.mjs", [log]);
  expect(await runOnce(config, { eraVerdicts: fileEraVerdictStore(file) })).toMatch(/^fault /);
  expect(spawnCount(log)).toBe(2); // the probe, then once more as legacy
  expect(verdicts(file)).toEqual([expect.objectContaining({ kind: "legacy", reason: "died" })]);
  for (let next = 1; next <= 2; next += 1) {
    expect(await runOnce(config, { eraVerdicts: fileEraVerdictStore(file) })).toMatch(/^fault /);
    expect(spawnCount(log)).toBe(2 + next);
  }
  expect(verdicts(file)).toEqual([expect.objectContaining({ kind: "legacy" })]);
});

it("a modern-only server too slow to answer the probe still connects in its era, and is remembered", async () => {
  const log = path.join(dir, "slow-spawns");
  const file = path.join(dir, "verdicts-slow.json");
  const config = fixture("slow", "modern-server.mjs", ["delay=1200", `spawnlog=${log}`]);
  const options = { eraVerdicts: fileEraVerdictStore(file), timeouts: { eraProbeMs: 400 } };
  expect(await runOnce(config, options)).toBe("2026-07-28");
  expect(spawnCount(log)).toBe(2); // silence read as legacy; `initialize` refused; again in 2026-07-28
  expect(verdicts(file)).toEqual([expect.objectContaining({ kind: "modern" })]);
  expect(await runOnce(config, options)).toBe("2026-07-28");
  expect(spawnCount(log)).toBe(3);
});

it("a stale legacy verdict for a server now modern-only is renegotiated in the same run", async () => {
  const log = path.join(dir, "stale-spawns");
  const config = fixture("stale", "modern-server.mjs", [`spawnlog=${log}`]);
  // What a run left behind while the server still spoke only 2025 (a verdict kept for good).
  const saved: EraVerdict[] = [];
  const store: EraVerdictStore = {
    load: () => Promise.resolve(saved.at(-1) ?? { kind: "legacy", storedAt: 0, reason: "exited" }),
    save: (_identity, verdict) => Promise.resolve(void saved.push(verdict)),
    forget: () => Promise.resolve(),
  };
  expect(await runOnce(config, { eraVerdicts: store })).toBe("2026-07-28");
  expect(spawnCount(log)).toBe(2); // `initialize` refused, then negotiated afresh
  expect(saved).toEqual([expect.objectContaining({ kind: "modern" })]);
});
