/**
 * Connecting in `auto`: reuse the server's remembered era verdict (zero
 * probe round trips); without one, probe once and remember the outcome.
 * Three servers need a second process: one that exits on the unknown probe
 * (rmcp-style; retried as legacy), a modern-only one whose probe went
 * unanswered because it started slowly (`npx` installing it), so
 * `initialize` was refused (retried in the era it named), and one whose
 * probe answer arrived only after the probe gave up (retried in 2026). One that dies
 * whatever it is sent is remembered as legacy: the next run starts it once.
 * Over HTTP a probe that fails (times out, is cut, or spoils a stateful
 * upstream so its `initialize` is refused) is followed by a legacy attempt
 * on a fresh connection, and that verdict is remembered: the probe never
 * costs a server that could have been mounted.
 */
import { SdkError, SdkErrorCode, SdkHttpError, type PriorDiscovery } from "@modelcontextprotocol/client";
import {
  protocolFault,
  type EraVerdict,
  type EraVerdictStore,
  type LegacyVerdictReason,
  type ProtocolFault,
  type ProtocolMode,
} from "@indus/contract";
import { isModernOnlyRefusal, refusedRevisions } from "./era-mismatch";
import { probeOutcome } from "./era-verdict-expiry";
import { loadVerdict, priorOf, saveVerdict, verdictOf } from "./era-verdicts";
import type { Session } from "../session";

/** One connect attempt at a time, over the config's transport. */
export interface EraAttempts {
  /** Connect in `mode` (from a `prior` verdict when given) on a fresh transport. */
  attempt(mode: ProtocolMode, prior?: PriorDiscovery): Promise<Session>;
  /** The stdio server of the latest attempt exited before it was ready, without being told to. */
  diedOnItsOwn(): boolean;
  /** The stdio server of the latest attempt answered the `server/discover` probe, if only after it gave up. */
  answeredProbeLate(): boolean;
  /** Begin a retry on a fresh process; the function returned restores the first attempt's traces. */
  beginRetry(): () => void;
  /** The connect was cancelled (deadline or close). */
  cancelled(): boolean;
  /** How long `auto` waits for the `server/discover` probe. */
  readonly probeMs: number;
  /** The server is reached over HTTP (a fresh attempt is a fresh connection, not a fresh process). */
  readonly overHttp: boolean;
}

/** Where `auto` remembers a server's era. */
export interface EraMemory {
  readonly store: EraVerdictStore;
  readonly identity: string;
}

export async function connectAuto(attempts: EraAttempts, memory: EraMemory): Promise<Session> {
  const { store, identity } = memory;
  const verdict = await loadVerdict(store, identity);
  if (verdict) {
    try {
      return await attempts.attempt("auto", priorOf(verdict));
    } catch (error) {
      const keep = keepsVerdict(verdict, {
        diedOnItsOwn: attempts.diedOnItsOwn(),
        modernOnly: isModernOnlyRefusal(error),
      });
      if (!keep) await store.forget(identity).catch(() => undefined);
      // It moved to the 2026 era since: negotiate afresh now rather than fail this run.
      if (!isModernOnlyRefusal(error) || attempts.cancelled()) throw error;
    }
  }
  const { session, verdict: negotiated } = await negotiateEra(attempts, memory);
  await saveVerdict(store, identity, negotiated);
  return session;
}

/** How a connect that failed on a remembered verdict ended. */
export interface RememberedFailure {
  /** The stdio server exited before it was ready, without being told to. */
  readonly diedOnItsOwn: boolean;
  /** A modern-only server refused the 2025-era revisions offered. */
  readonly modernOnly: boolean;
}

/**
 * Whether a verdict survives a connect that failed on it. A stale verdict must
 * not stick, but a legacy one outlives a server that merely dies at once:
 * probing it again would only spawn it twice.
 */
export function keepsVerdict(verdict: EraVerdict, failure: RememberedFailure): boolean {
  return verdict.kind === "legacy" && failure.diedOnItsOwn && !failure.modernOnly;
}

interface Negotiated {
  readonly session: Session;
  readonly verdict: EraVerdict | undefined;
}

function negotiated(session: Session, reason: LegacyVerdictReason): Negotiated {
  return { session, verdict: verdictOf(session.client, reason) };
}

/** The first connect in `auto`: probe, fall back (see the file comment). */
async function negotiateEra(attempts: EraAttempts, memory: EraMemory): Promise<Negotiated> {
  const probeStarted = Date.now();
  try {
    const session = await attempts.attempt("auto");
    return negotiated(session, probeOutcome(Date.now() - probeStarted, attempts.probeMs));
  } catch (error) {
    if (isModernOnlyRefusal(error) && !attempts.cancelled()) {
      return negotiated(await attempts.attempt("2026-07-28"), "answered");
    }
    if (attempts.answeredProbeLate() && !attempts.cancelled()) return modernOnFreshProcess(attempts);
    if (attempts.overHttp && spoiledByProbe(error) && !attempts.cancelled()) {
      return legacyOnFreshConnection(attempts, error);
    }
    if (!diedOnProbe(attempts, error) || attempts.cancelled()) throw error;
    const restore = attempts.beginRetry();
    try {
      return negotiated(await attempts.attempt("auto", { kind: "legacy" }), "exited");
    } catch (retryError) {
      // It just dies: report the first attempt, as without the retry.
      restore();
      if (attempts.diedOnItsOwn() && !isModernOnlyRefusal(retryError)) {
        await saveVerdict(memory.store, memory.identity, { kind: "legacy", storedAt: Date.now(), reason: "died" });
      }
      throw error;
    }
  }
}

/**
 * The probe's answer came after its deadline (a large or slow `server/discover`
 * on a loaded machine), so the legacy `initialize` that followed it on the
 * same process failed: the server speaks 2026. Start it again in that era.
 */
async function modernOnFreshProcess(attempts: EraAttempts): Promise<Negotiated> {
  attempts.beginRetry();
  return negotiated(await attempts.attempt("2026-07-28"), "answered");
}

/** A legacy attempt on a fresh connection after a failed probe; the probe's error when that fails too. */
async function legacyOnFreshConnection(attempts: EraAttempts, probeError: unknown): Promise<Negotiated> {
  try {
    return negotiated(await attempts.attempt("auto", { kind: "legacy" }), "unanswered");
  } catch {
    throw probeError;
  }
}

const PROBE_FAILURES: ReadonlySet<SdkErrorCode> = new Set([
  SdkErrorCode.RequestTimeout,
  SdkErrorCode.EraNegotiationFailed,
  SdkErrorCode.ConnectionClosed,
]);

/**
 * An HTTP connect that failed in a way the probe may have caused: the probe
 * timed out or was cut, or the upstream refused what followed it (a
 * stateful bridge whose session the probe opened). Never a sign-in demand.
 */
function spoiledByProbe(error: unknown): boolean {
  if (error instanceof SdkHttpError) return error.status !== 401 && error.status !== 403;
  return error instanceof SdkError && PROBE_FAILURES.has(error.code);
}

/** The stdio server of this attempt exited during the `server/discover` probe. */
function diedOnProbe(attempts: EraAttempts, error: unknown): boolean {
  return (
    attempts.diedOnItsOwn() &&
    error instanceof SdkError &&
    (error.code === SdkErrorCode.EraNegotiationFailed || error.code === SdkErrorCode.ConnectionClosed)
  );
}

/** A modern-only server refused the revisions `mode` offered: say which era it speaks and what to change. */
export function eraMismatch(server: string, mode: ProtocolMode, error: unknown): ProtocolFault {
  const supported = (refusedRevisions(error) ?? []).join(", ");
  const why =
    mode === "legacy"
      ? `its config pins protocol "legacy" (the 2025 initialize handshake); set protocol to "auto" or "2026-07-28"`
      : `the client offered only 2025-era revisions`;
  return protocolFault(
    "protocol",
    `server "${server}" speaks only MCP ${supported} (the stateless 2026 era), but ${why}`,
    error,
  );
}
