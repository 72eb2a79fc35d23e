/**
 * `tools/call` on the live session, through the session port: plain or as a
 * task (see `tool-task.ts`), with the call's deadline, `Mcp-Param-*` headers
 * and relayTo, and in the 2026 era the relayTo's capabilities in `_meta`; or, when
 * the caller answers the server's questions itself, one input round.
 */
import type { GatewayCallOptions, InvokeOptions, JsonObject, RemoteCallResult, TaskMethod } from "@indus/contract";
import { ProtocolError, ProtocolErrorCode, type ServerCapabilities } from "@modelcontextprotocol/client";
import { requestWithDeadline, type DeadlineOptions } from "../deadline";
import { paramHeaderValues } from "../http/mcp-param-headers";
import { retryOnLegacy } from "../relay/input-handback";
import { callModern, type ModernCallContext } from "./modern-call";
import { withTrace } from "../request-meta";
import type { Session } from "../session";
import type { SessionPort } from "../session-port";
import { AnyResultSchema, readCallResult } from "../wire";
import type { ToolCallTraits, ToolCatalog } from "./tool-catalog";
import { callAsTask, offersToolTasks } from "./tool-task";

type CallRequest = { method: string; params: Record<string, unknown> };
type CallDeadline = DeadlineOptions & { readonly totalMs: number };

/** What decides whether a call lists the tools first. */
export interface ListFirstFacts {
  /** The tool's traits from the last listing, if it listed the tool. */
  readonly traits: ToolCallTraits | undefined;
  /** Whether a listing has succeeded, or has failed (and is then not run again before every call). */
  readonly listed: boolean;
  readonly listFailed: boolean;
  readonly session: Pick<Session, "era"> | undefined;
  readonly capabilities: ServerCapabilities | undefined;
}

/**
 * Which tools must run as tasks (2025 era) only the listing says: a call on a
 * 2025-era task server whose tools were never listed lists them first. A failed
 * listing is not run again before every call (that would add its timeout to each).
 */
export function listsFirst(facts: ListFirstFacts): boolean {
  return (
    facts.traits === undefined &&
    !facts.listed &&
    !facts.listFailed &&
    facts.session?.era === "legacy" &&
    offersToolTasks(facts.capabilities)
  );
}

export class ToolCalls {
  constructor(
    private readonly port: SessionPort,
    private readonly tools: ToolCatalog,
  ) {}

  /** Call a tool by its server-side name; the result is the server's, untouched. */
  invoke(name: string, args: unknown, options: InvokeOptions): Promise<RemoteCallResult> {
    const traits = this.tools.callTraits(name);
    const facts = {
      traits,
      listed: this.tools.cached !== undefined,
      listFailed: this.tools.listFault !== undefined,
      session: this.port.current(),
      capabilities: this.port.capabilities(),
    };
    if (listsFirst(facts)) {
      const call = () => this.call(name, args, options, this.tools.callTraits(name));
      return this.tools.list().then(call, call);
    }
    return this.call(name, args, options, traits);
  }

  /** `tools/call`, plain or as a task, with the call's deadline, headers and relayTo. */
  private call(
    name: string,
    args: unknown,
    options: InvokeOptions,
    traits: ToolCallTraits | undefined,
  ): Promise<RemoteCallResult> {
    const request = {
      method: "tools/call",
      params: withTrace(
        { name, arguments: args === undefined || args === null ? {} : (args as Record<string, unknown>) },
        options.trace,
      ),
    };
    const deadline = this.deadline(options, traits, request.params.arguments);
    const { relayTo, logs, inputRound } = options;
    return this.port.during(
      relayTo,
      () =>
        this.port.onSession(
          () => `call "${name}"`,
          "call",
          (session) =>
            session.era === "2026-07-28"
              ? callModern(this.modernContext(session, options), request, deadline, options)
              : inputRound?.kind === "retry"
                ? Promise.reject(retryOnLegacy(this.port.server))
                : legacyCall(session, request, deadline, traits),
        ),
      logs,
    );
  }

  private deadline(options: InvokeOptions, traits: ToolCallTraits | undefined, args: unknown): CallDeadline {
    const { callMs, callTotalMs } = this.port.timeouts;
    const declared = traits?.paramHeaders;
    return {
      timeoutMs: options.timeoutMs ?? callMs,
      totalMs: Math.max(callTotalMs, options.timeoutMs ?? 0),
      signal: options.signal,
      onProgress: options.onProgress,
      headers: declared ? paramHeaderValues(declared, args) : undefined,
      clientWaits: this.port.clientWaits,
    };
  }

  /** What a 2026-era call needs: the session's client, its `_meta`, the host hooks for a task's questions. */
  private modernContext(session: Session, options: InvokeOptions): ModernCallContext {
    return {
      client: session.client,
      server: this.port.server,
      frame: (request, tasks) => this.port.withMeta(request, options.relayTo, options.logs, tasks),
      answer: (method, params, signal, key) => this.port.answer(method, params, signal, key),
    };
  }

  /**
   * `tasks/get`, `tasks/update` or `tasks/cancel` for a task this server
   * created (the 2026 era's Tasks extension), declaring the extension; the
   * result as sent. A server now speaking the 2025 era has no such task: -32602.
   */
  taskRequest(method: TaskMethod, params: JsonObject, options: GatewayCallOptions = {}): Promise<JsonObject> {
    const taskId = typeof params["taskId"] === "string" ? params["taskId"] : "?";
    return this.port.onSession(`${method} ${taskId}`, "call", (session) => {
      if (session.era !== "2026-07-28") {
        const why = `server "${this.port.server}" speaks the 2025 era now: it has no task ${taskId}`;
        return Promise.reject(new ProtocolError(ProtocolErrorCode.InvalidParams, why));
      }
      const sent = this.port.withMeta({ method, params: { ...params } }, options.relayTo, options.logs, true);
      const deadline = { timeoutMs: this.port.timeouts.callMs, signal: options.signal };
      return requestWithDeadline<JsonObject>(session.client, sent, AnyResultSchema, deadline);
    });
  }
}

/**
 * A 2025-era call. A caller answering the server's questions itself (an input
 * round) gets them through the call's relayTo as usual; a round that retries
 * with another revision's state cannot be sent here (see `call`).
 */
function legacyCall(
  session: Session,
  request: CallRequest,
  deadline: CallDeadline,
  traits: ToolCallTraits | undefined,
): Promise<RemoteCallResult> {
  const plain = traits?.task
    ? callAsTask(session.client, request, deadline)
    : requestWithDeadline<unknown>(session.client, request, AnyResultSchema, deadline);
  return plain.then(readCallResult);
}
