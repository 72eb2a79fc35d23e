/**
 * Mounted servers' log messages, relayed to the host's 2025-era sessions.
 * Each session's `logging/setLevel` is its own filter; the catalog is set to
 * the least severe level any live session asked for, so every session still
 * gets what it asked for. A session that never set a level gets every
 * message, as the SDK's own server does. (The 2026-07-28 revision has no log
 * channel outside a request, and the catalog's messages name no call.)
 */
import { LOG_LEVELS } from "@indus/contract";
import type { GatewayCatalog, LogLevel, ServerLogEntry } from "@indus/contract";
import type { LoggingMessageNotification } from "@modelcontextprotocol/server";
import type { GatewaySession, SessionRegistry } from "./session-registry";

export class LogRelay {
  /** The level last set on the catalog. */
  private applied: LogLevel | undefined;

  constructor(
    private readonly catalog: GatewayCatalog | undefined,
    private readonly sessions: SessionRegistry,
  ) {
    catalog?.onLog?.((entry) => this.deliver(entry));
    sessions.onClose(() => void this.apply().catch(() => {}));
  }

  /** `logging/setLevel` from a session (none: a request that belongs to no session, accepted as a no-op). */
  async setLevel(session: GatewaySession | undefined, level: LogLevel, signal: AbortSignal): Promise<void> {
    if (session === undefined) return;
    session.level = level;
    await this.apply(signal);
  }

  private async apply(signal?: AbortSignal): Promise<void> {
    const catalog = this.catalog;
    const least = leastSevere(this.sessions.all());
    if (catalog?.setLogLevel === undefined || least === undefined || least === this.applied) return;
    const previous = this.applied;
    this.applied = least;
    try {
      await catalog.setLogLevel(least, signal === undefined ? undefined : { signal });
    } catch (error) {
      if (this.applied === least) this.applied = previous;
      throw error;
    }
  }

  private deliver(entry: ServerLogEntry): void {
    const level = entry.params.level;
    for (const session of this.sessions.all()) {
      if (!admits(session.level, level)) continue;
      const params = entry.params as unknown as LoggingMessageNotification["params"];
      session.server.sendLoggingMessage(params).catch(() => {});
    }
  }
}

function severity(level: unknown): number {
  return LOG_LEVELS.indexOf(level as LogLevel);
}

/** Whether a session with `threshold` takes a message at `level` (unknown levels pass). */
function admits(threshold: LogLevel | undefined, level: unknown): boolean {
  return threshold === undefined || severity(level) < 0 || severity(level) >= severity(threshold);
}

function leastSevere(sessions: Iterable<GatewaySession>): LogLevel | undefined {
  let least: LogLevel | undefined;
  for (const { level } of sessions) {
    if (level !== undefined && (least === undefined || severity(level) < severity(least))) least = level;
  }
  return least;
}
