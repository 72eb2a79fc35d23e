/**
 * Reconnecting a lost server under its `reconnect` policy: exponential
 * backoff between attempts, one outcome `open()` callers wait on meanwhile,
 * and a cancel for `close()`.
 */
import { protocolFault, type ProtocolFault } from "@indus/contract";
import type { Session } from "../session";

export interface ReconnectPolicy {
  readonly maxAttempts: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
}

/** What a reconnect does with the endpoint. */
export interface ReconnectPort {
  readonly server: string;
  /** One connect attempt. */
  connect(): Promise<Session>;
  /** The endpoint is closing: a late session is closed, a failure ignored. */
  closing(): boolean;
  /** A new session replaces the lost one. */
  adopt(session: Session): void;
  /** A late session after close. */
  discard(session: Session): void;
  /** The fault an attempt's error stands for. */
  toFault(error: unknown): ProtocolFault;
  /** No attempt is left: the endpoint is faulted. */
  giveUp(fault: ProtocolFault): void;
}

export interface Reconnecting {
  /** Settles when the server is back (resolves) or given up on / cancelled (rejects). */
  readonly outcome: Promise<void>;
  readonly cancel: () => void;
}

/** Start reconnecting after `lost`; `settled` runs once the outcome is known. */
export function scheduleReconnect(
  policy: ReconnectPolicy,
  lost: ProtocolFault,
  port: ReconnectPort,
  settled: () => void,
): Reconnecting {
  let timer: NodeJS.Timeout | undefined;
  let settle!: { resolve: () => void; reject: (fault: ProtocolFault) => void };
  const outcome = new Promise<void>((resolve, reject) => {
    settle = { resolve, reject };
  });
  outcome.catch(() => undefined);
  const finish = (fault?: ProtocolFault) => {
    settled();
    if (fault) settle.reject(fault);
    else settle.resolve();
  };
  const attempt = (left: number, backoff: number) => {
    timer = setTimeout(() => {
      timer = undefined;
      port.connect().then(
        (session) => {
          if (port.closing()) {
            port.discard(session);
            return;
          }
          port.adopt(session);
          finish();
        },
        (error: unknown) => {
          if (port.closing()) return;
          const fault = port.toFault(error);
          if (left > 1) {
            attempt(left - 1, Math.min(backoff * 2, policy.maxDelayMs));
            return;
          }
          port.giveUp(fault);
          finish(fault);
        },
      );
    }, backoff);
    timer.unref();
  };
  attempt(policy.maxAttempts, policy.initialDelayMs);
  return {
    outcome,
    cancel: () => {
      if (timer) clearTimeout(timer);
      finish(protocolFault("not-connected", `server "${port.server}" was closed while reconnecting`, lost));
    },
  };
}
