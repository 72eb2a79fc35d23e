/**
 * One connect attempt bounded by the startup deadline and cancellable by
 * `close()`. Every transport the attempt opens is tracked, so whichever ends
 * it (deadline, close, failure) shuts down what was started, and a session
 * that completes just too late is closed rather than leaked.
 */
import type { Transport } from "@modelcontextprotocol/client";
import { DeadlineExceeded } from "../deadline";
import { endSession, type Session } from "../session";

/** Records a transport the attempt opened (closing it at once if the attempt was already cancelled). */
export type TrackTransport = (transport: Transport) => Transport;

/** What the endpoint lends a connect attempt. */
export interface StartupPort {
  /** Holds the function that cancels the attempt while it runs (`undefined` once it ended). */
  setAbort(abort: (() => void) | undefined): void;
  /** A shutdown of a failed attempt's transport; `close()` waits for these. */
  cleanup(done: Promise<unknown>): void;
}

export async function connectWithin(
  ms: number,
  work: (track: TrackTransport, cancelled: () => boolean) => Promise<Session>,
  port: StartupPort,
): Promise<Session> {
  let cancelled = false;
  let current: Transport | undefined;
  let timer: NodeJS.Timeout | undefined;
  const stop = (reason: "timeout" | "closed") =>
    new Promise<never>((_, reject) => {
      const fail = () => {
        cancelled = true;
        void current?.close().catch(() => undefined);
        reject(reason === "timeout" ? new DeadlineExceeded(ms, false) : new Error("closed while connecting"));
      };
      if (reason === "timeout") timer = setTimeout(fail, ms);
      else port.setAbort(fail);
    });
  const track = (transport: Transport) => {
    current = transport;
    if (cancelled) void transport.close().catch(() => undefined);
    return transport;
  };
  const running = work(track, () => cancelled);
  // The loser of the race must not become an unhandled rejection.
  running.catch(() => undefined);
  try {
    return await Promise.race([running, stop("timeout"), stop("closed")]);
  } catch (error) {
    // Whatever was started is shut down, and close() waits for that to finish.
    if (current) port.cleanup(current.close().catch(() => undefined));
    // A session that completed just as the deadline fired is closed, not leaked. (Not
    // awaited by close(): a handshake on a closed transport may never settle.)
    void running.then((session) => endSession(session, true)).catch(() => undefined);
    throw error;
  } finally {
    if (timer) clearTimeout(timer);
    port.setAbort(undefined);
  }
}
