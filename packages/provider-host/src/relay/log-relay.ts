/**
 * Mounted servers' log messages that no call can claim (the servers' own
 * chatter; a 2025-era stdio server's logs, which name no request), relayed
 * to every client that can take them now and whose level admits them: the
 * 2025-era sessions (each `logging/setLevel` is that session's own filter;
 * none set: every message, as the SDK's own server does) and the 2026-07-28
 * calls in flight that asked for logs (the only channel to such a client).
 * A message a call can claim goes to that call's client alone (`call-logs`).
 *
 * The 2025-era servers behind the box filter by one level per connection, so
 * the catalog is set to the least severe level anyone takes: a session with
 * no level takes everything, and a 2026-07-28 client's per-request level
 * counts from its first call on.
 */
import { LOG_LEVELS } from "@indus/contract";
import type { CallLogs, GatewayCatalog, JsonObject, LogLevel, ServerLogEntry } from "@indus/contract";
import type { LoggingMessageNotification } from "@modelcontextprotocol/server";
import type { GatewaySession, SessionRegistry } from "./session-registry";

export class LogRelay {
  /** The level last set on the catalog. */
  private applied: LogLevel | undefined;
  /** The least severe level a 2026-07-28 call asked for so far. */
  private modernFloor: LogLevel | undefined;
  /** 2026-07-28 calls in flight that asked for logs, by the client they came from. */
  private readonly modernCalls = new Map<object, Set<CallLogs>>();
  /** Which mounted servers each such client may hear from (a gateway's access policy); absent: all. */
  private readonly hearing = new WeakMap<object, (server: string) => boolean>();

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

  /**
   * A 2026-07-28 call that takes logs at `logs.level`: it hears the messages
   * no call claims until `ended` settles, and the servers are asked for its
   * level. Calls with the same `client` (one stdio connection) are one
   * client: each message reaches it once. `hears`: the servers it may hear from.
   */
  hearDuring(logs: CallLogs, ended: Promise<unknown>, client: object, hears?: (server: string) => boolean): void {
    const level = logs.level;
    if (level === undefined) return;
    if (hears !== undefined) this.hearing.set(client, hears);
    let calls = this.modernCalls.get(client);
    if (calls === undefined) this.modernCalls.set(client, (calls = new Set()));
    calls.add(logs);
    const forget = () => {
      calls.delete(logs);
      if (calls.size === 0 && this.modernCalls.get(client) === calls) this.modernCalls.delete(client);
    };
    ended.then(forget, forget);
    if (this.modernFloor === undefined || severity(level) < severity(this.modernFloor)) {
      this.modernFloor = level;
      this.apply().catch(() => {});
    }
  }

  private async apply(signal?: AbortSignal): Promise<void> {
    const catalog = this.catalog;
    const least = this.leastWanted();
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

  /**
   * The least severe level anyone takes; undefined while nobody ever asked
   * for one (the servers then send everything, which is what everyone takes).
   */
  private leastWanted(): LogLevel | undefined {
    let least = this.modernFloor;
    let anySet = least !== undefined || this.applied !== undefined;
    for (const { level } of this.sessions.all()) {
      if (level !== undefined) anySet = true;
      const wanted = level ?? "debug";
      if (least === undefined || severity(wanted) < severity(least)) least = wanted;
    }
    return anySet ? least : undefined;
  }

  private deliver(entry: ServerLogEntry): void {
    const level = entry.params.level;
    for (const session of this.sessions.all()) {
      if (!admits(session.level, level) || session.hears?.(entry.server) === false) continue;
      const params = entry.params as unknown as LoggingMessageNotification["params"];
      session.server.sendLoggingMessage(params).catch(() => {});
    }
    for (const [client, calls] of this.modernCalls) {
      if (this.hearing.get(client)?.(entry.server) === false) continue;
      for (const logs of calls) {
        if (!admits(logs.level, level)) continue;
        logs.deliver(entry.params);
        break;
      }
    }
  }
}

function severity(level: unknown): number {
  return LOG_LEVELS.indexOf(level as LogLevel);
}

/** Whether a receiver with `threshold` takes a message at `level` (none: everything; unknown levels pass). */
export function admits(threshold: LogLevel | undefined, level: unknown): boolean {
  return threshold === undefined || severity(level) < 0 || severity(level) >= severity(threshold);
}

/** A log message's params as the SDK's notification takes them. */
export function logNotification(params: JsonObject): LoggingMessageNotification {
  return { method: "notifications/message", params: params as unknown as LoggingMessageNotification["params"] };
}
