/**
 * A Streamable HTTP server answered 404 for our 2025-era session: it
 * restarted or expired us. A fresh session is started once, within the
 * startup deadline, and shared by every request that hit the 404.
 */
import type { HttpServerConfig, ProtocolFault } from "@indus/contract";
import { DeadlineExceeded } from "../deadline";
import { endSession, type Session } from "../session";
import type { SessionOpener } from "./session-opener";

/** What a renewal does with the endpoint. */
export interface RenewalPort {
  /** The live session. */
  current(): Session | undefined;
  /** The fresh session replaces the stale one. */
  adopt(session: Session): void;
  /** The renewal failed: the endpoint is faulted with what this returns. */
  fail(error: unknown): ProtocolFault;
}

export class SessionRenewal {
  private renewing: Promise<Session> | undefined;

  constructor(
    private readonly opener: SessionOpener,
    private readonly startupMs: number,
    private readonly port: RenewalPort,
  ) {}

  /** The renewal under way, if any (shutdown waits for it). */
  get pending(): Promise<Session> | undefined {
    return this.renewing;
  }

  /** A fresh session for `stale` (the current one if another renewal replaced it already). */
  renew(stale: Session, config: HttpServerConfig): Promise<Session> {
    const current = this.port.current();
    if (current !== stale) return Promise.resolve(current ?? stale);
    this.renewing ??= this.start(stale, config).finally(() => {
      this.renewing = undefined;
    });
    return this.renewing;
  }

  private async start(stale: Session, config: HttpServerConfig): Promise<Session> {
    stale.retired = true;
    const ms = this.startupMs;
    const transport = this.opener.streamableTransport(config.url, config.headers);
    let timer: NodeJS.Timeout | undefined;
    try {
      const session = await Promise.race([
        this.opener.handshake(transport, "streamable-http", "legacy"),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            void transport.close().catch(() => undefined);
            reject(new DeadlineExceeded(ms, false));
          }, ms);
        }),
      ]);
      this.port.adopt(session);
      void endSession(stale, false);
      return session;
    } catch (error) {
      throw this.port.fail(error);
    } finally {
      if (timer) clearTimeout(timer);
    }
  }
}
