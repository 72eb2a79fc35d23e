/**
 * Noticing that a remote (HTTP) server is gone. Unlike a child process, its
 * transport never closes by itself: the SDK reports a broken listen stream
 * or a refused request only as an error. On such an error the server is
 * asked once (a ping, one at a time); a ping that fails for a network cause
 * (refused, reset, unreachable: see `network-cause.ts`) means it is lost.
 * Any other outcome (an answer, a timeout, an HTTP error) means it is there.
 */
import { networkCause } from "../faults/network-cause";
import type { Session } from "../session";

/** How long the probe waits for the server's answer; silence is no proof of loss. */
const PROBE_TIMEOUT_MS = 5_000;

export class RemoteLossProbe {
  private probing = false;

  /** `lost` hears the session a failed probe condemned, with the probe's error. */
  constructor(private readonly lost: (session: Session, error: unknown) => void) {}

  /** The SDK reported an error on `session`: is its server still there? */
  suspect(session: Session): void {
    if (session.kind === "stdio" || session.retired || this.probing) return;
    this.probing = true;
    session.client
      .ping({ timeout: PROBE_TIMEOUT_MS })
      .then(
        () => undefined,
        (error: unknown) => {
          if (!session.retired && networkCause(error) !== undefined) this.lost(session, error);
        },
      )
      .finally(() => {
        this.probing = false;
      });
  }
}
