/**
 * How long a remembered era verdict is trusted before `auto` probes again.
 * A stale legacy verdict never fails: an upgraded server still answers
 * `initialize`, so without expiry a both-eras server that once looked legacy
 * (a slow `npx` start outlasted the probe, or it died once) would stay
 * legacy for good. What a re-probe costs decides each horizon:
 * - `unanswered`, `died` and verdicts stored before reasons existed: 24 h.
 *   They say little about the era, and re-checking costs at most one probe
 *   wait (`eraProbeMs`, 5 s) or one more spawn a day; 24 h is also the
 *   longest list cache the SDK honours (its `MAX_CACHE_TTL_MS`).
 * - `answered`: 7 days. The server itself said it is not 2026-era; a weekly
 *   re-check (one round trip) notices an upgrade, as the SDK's guidance on
 *   dating legacy verdicts asks.
 * - `exited`: never. Re-probing spawns such a server twice every time, and
 *   a server that ends the session on an unknown request is legacy by shape.
 * - modern verdicts: never. A stale one fails loudly (the server refuses it)
 *   and is renegotiated in the same connect.
 */
import type { EraVerdict, LegacyVerdictReason } from "@indus/contract";

const HOUR_MS = 3_600_000;

/** Trust horizon of a legacy verdict, by why it was stored (`unknown`: stored before reasons existed). */
export const LEGACY_VERDICT_TTL_MS: Readonly<Record<LegacyVerdictReason | "unknown", number>> = {
  unanswered: 24 * HOUR_MS,
  died: 24 * HOUR_MS,
  unknown: 24 * HOUR_MS,
  answered: 7 * 24 * HOUR_MS,
  exited: Number.POSITIVE_INFINITY,
};

/** Whether `verdict` may still stand in for a probe at time `now` (a verdict from the future is not). */
export function isVerdictTrusted(verdict: EraVerdict, now: number): boolean {
  if (verdict.kind === "modern") return true;
  const age = now - verdict.storedAt;
  return age >= 0 && age < LEGACY_VERDICT_TTL_MS[verdict.reason ?? "unknown"];
}

/**
 * Why a legacy verdict came out of a probe that took `elapsedMs`. The SDK
 * does not say whether its probe was answered, but an unanswered one lasts
 * the whole wait, so anything quicker was answered. (A slow answer may be
 * counted as unanswered: that only re-checks it sooner.)
 */
export function probeOutcome(elapsedMs: number, probeMs: number): LegacyVerdictReason {
  return elapsedMs < probeMs ? "answered" : "unanswered";
}
