/** Log messages a server sends, and where a caller takes the ones its own request causes. */
import type { JsonObject } from "./json";

/** MCP's log levels (RFC 5424 severities), least severe first. */
export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * A caller's own channel for the log messages its request causes: a gateway
 * gives each call one, so a server's `notifications/message` that belongs to
 * that call (it arrived on the call's own stream, or it can belong to no
 * other) reaches that caller and no other client. Messages no call can
 * claim go to `GatewayCatalog.onLog` listeners instead.
 */
export interface CallLogs {
  /**
   * The least severe level the caller takes from this call; absent: none (a
   * 2026-07-28 server is then asked for no messages, as the revision has it).
   */
  readonly level?: LogLevel;
  /**
   * One message, params as the server sent them. A 2025-era server filters by
   * its connection's level, not this one: messages below `level` may arrive.
   */
  readonly deliver: (params: JsonObject) => void;
}
