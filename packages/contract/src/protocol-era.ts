/**
 * Which MCP protocol era a client speaks with a server, and where the
 * verdict of a negotiation is remembered between runs. The 2026-07-28
 * revision is stateless (no `initialize`); the 2025 revisions ("legacy")
 * start with the `initialize` handshake. Probing costs a round trip (and on
 * stdio may kill a server that exits on an unknown request), so a verdict is
 * negotiated once per server identity and reused. IO-free: the store's shape
 * only; a host picks where verdicts live.
 */
import type { JsonObject } from "./json";

/** The era a connection runs in. */
export const PROTOCOL_ERAS = ["2026-07-28", "legacy"] as const;
export type ProtocolEra = (typeof PROTOCOL_ERAS)[number];

/** What a server config asks for: negotiate (`auto`, the default) or pin one era. */
export const PROTOCOL_MODES = ["auto", "2026-07-28", "legacy"] as const;
export type ProtocolMode = (typeof PROTOCOL_MODES)[number];

/**
 * Why a legacy verdict was stored; a host trusts each for its own time:
 * - `answered`: the probe was answered without 2026 evidence (a 2025 server's error reply);
 * - `unanswered`: the negotiation took the whole probe wait, so the probe may have gone
 *   unanswered (a slow start, e.g. `npx` installing the server, rather than a verdict);
 * - `exited`: the server exited on the probe and then served `initialize` on a fresh process;
 * - `died`: the server died whatever it was sent, so its era is unknown.
 */
export const LEGACY_VERDICT_REASONS = ["answered", "unanswered", "exited", "died"] as const;
export type LegacyVerdictReason = (typeof LEGACY_VERDICT_REASONS)[number];

/**
 * A negotiated verdict and when it was stored (ms since the epoch). A modern
 * one keeps the server's `server/discover` result, so the next connect
 * adopts it with zero round trips. Verdicts stored before `reason` existed
 * have none.
 */
export type EraVerdict =
  | { readonly kind: "modern"; readonly discover: JsonObject; readonly storedAt: number }
  | { readonly kind: "legacy"; readonly storedAt: number; readonly reason?: LegacyVerdictReason };

/** Loads, saves and forgets verdicts keyed by a server identity (command+args+env keys, or URL). */
export interface EraVerdictStore {
  load(identity: string): Promise<EraVerdict | undefined>;
  save(identity: string, verdict: EraVerdict): Promise<void>;
  forget(identity: string): Promise<void>;
}

/** A store that lives as long as the process (tests, one-shot hosts). */
export function memoryEraVerdictStore(): EraVerdictStore {
  const verdicts = new Map<string, EraVerdict>();
  return {
    load: (identity) => Promise.resolve(structuredClone(verdicts.get(identity))),
    save: (identity, verdict) => {
      verdicts.set(identity, structuredClone(verdict));
      return Promise.resolve();
    },
    forget: (identity) => {
      verdicts.delete(identity);
      return Promise.resolve();
    },
  };
}
