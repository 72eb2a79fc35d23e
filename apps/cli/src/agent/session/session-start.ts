/** The `session_start` event (model, tools, every server's outcome, the config diagnostics), and `server_change`. */
import type { ServerReport } from "../../boot/boot-types";
import { serverView, type AgentEvent } from "../events";
import type { SessionOptions } from "./session-options";

export function sessionStartEvent(
  sessionId: string,
  options: SessionOptions,
  transcript: string,
  servers: readonly ServerReport[],
): AgentEvent {
  const { deck } = options;
  return {
    type: "session_start",
    sessionId,
    cwd: options.cwd,
    provider: options.provider,
    model: options.modelId,
    baseUrl: options.baseUrl,
    transcript,
    tools: deck.box.descriptors().map((d) => ({
      name: d.name,
      origin: deck.origin(d.name),
      readOnly: d.annotations?.readOnlyHint === true,
    })),
    servers: servers.map(serverView),
    diagnostics: deck.diagnostics.map((d) => ({
      file: d.file,
      ...(d.row !== undefined ? { row: d.row } : {}),
      message: d.message,
      severity: d.severity,
    })),
  };
}

/** A server lost or back mid-session, as the session reports it. */
export function serverChange(report: ServerReport): AgentEvent {
  return {
    type: "server_change",
    server: report.id,
    phase: report.phase,
    toolCount: report.toolCount,
    ...(report.fault ? { fault: report.fault } : {}),
  };
}
