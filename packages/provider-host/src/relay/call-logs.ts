/**
 * A call's own log channel (`CallLogs`): where a mounted server's
 * `notifications/message` caused by the call goes, so it reaches the client
 * whose call caused it and no other. Each kind of client has its own:
 *
 * - a 2025-era session over one wire (stdio): the session itself, one
 *   channel for all its calls (nothing per call);
 * - a 2025-era session over HTTP: related to the call, so it rides the call's
 *   own response stream;
 * - a 2026-07-28 call: the round answering it now, at the level its request
 *   asked for in `_meta` (none asked: none sent, as the revision has it);
 *   messages between rounds wait for the next one.
 *
 * Each filters by its client's level: a 2025-era server behind the box
 * filters by one level for all the gateway's clients.
 */
import type { CallLogs, JsonObject, LogLevel } from "@indus/contract";
import type { ServerContext } from "@modelcontextprotocol/server";
import { admits, logNotification } from "./log-relay";
import type { GatewaySession } from "./session-registry";

/** A client that takes no logs from the call (a 2026-07-28 request without a level). */
export const NO_LOGS: CallLogs = Object.freeze({ deliver: () => {} });

/**
 * What a 2025-era session asks the servers for: its level, or everything
 * when it never set one (the SDK's own server sends it every message then).
 */
function sessionLevel(session: GatewaySession): LogLevel {
  return session.level ?? "debug";
}

/** The session as the channel of every call it makes (one wire: nothing tells calls apart anyway). */
export function sessionLogs(session: GatewaySession): CallLogs {
  return {
    get level() {
      return sessionLevel(session);
    },
    deliver(params: JsonObject) {
      if (!admits(session.level, params.level)) return;
      session.server.sendLoggingMessage(logNotification(params).params).catch(() => {});
    },
  };
}

/** A 2025-era call over HTTP: messages related to the call's request. */
export function relatedLogs(session: GatewaySession, ctx: ServerContext): CallLogs {
  return {
    get level() {
      return sessionLevel(session);
    },
    deliver(params: JsonObject) {
      if (!admits(session.level, params.level)) return;
      ctx.mcpReq.notify(logNotification(params)).catch(() => {});
    },
  };
}

/** How many messages a 2026-07-28 call holds while its client is away answering (the oldest go first). */
const HELD_MAX = 100;

/**
 * A 2026-07-28 call at `level`: each message goes on the request answering
 * the call now; one that arrives between rounds (the client is away
 * answering) waits for the next round.
 */
export class RoundLogs implements CallLogs {
  private round: ServerContext | undefined;
  private readonly held: JsonObject[] = [];

  constructor(readonly level: LogLevel) {}

  deliver(params: JsonObject): void {
    if (!admits(this.level, params.level)) return;
    if (this.round !== undefined) return send(this.round, params);
    if (this.held.push(params) > HELD_MAX) this.held.shift();
  }

  /** `ctx` answers the call now: it carries what waited for it. */
  enter(ctx: ServerContext): void {
    this.round = ctx;
    for (const params of this.held.splice(0)) send(ctx, params);
  }

  leave(ctx: ServerContext): void {
    if (this.round === ctx) this.round = undefined;
  }
}

function send(ctx: ServerContext, params: JsonObject): void {
  ctx.mcpReq.notify(logNotification(params)).catch(() => {});
}

/** The channel of a request that is its own round (`prompts/get`, `resources/read`, `completion/complete`). */
export function requestLogs(level: LogLevel | undefined, ctx: ServerContext): CallLogs {
  if (level === undefined) return NO_LOGS;
  const logs = new RoundLogs(level);
  logs.enter(ctx);
  return logs;
}
