/**
 * `tools/call` on the live session, through the session port: plain or as a
 * task (see `tool-task.ts`), with the call's deadline, `Mcp-Param-*` headers
 * and peer, and in the 2026 era the peer's capabilities in `_meta`; or, when
 * the caller answers the server's questions itself, one input round.
 */
import type { InputRound, InvokeOptions, RemoteCallResult } from "@indus/contract";
import type { ServerCapabilities } from "@modelcontextprotocol/client";
import { requestWithDeadline, type DeadlineOptions } from "../deadline";
import { paramHeaderValues } from "../http/mcp-param-headers";
import { readRoundResult, retryOnLegacy, withRound } from "../peer/input-handback";
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

  /** `tools/call`, plain or as a task, with the call's deadline, headers and peer. */
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
    const { peer, logs, inputRound } = options;
    return this.port.during(
      peer,
      () =>
        this.port.onSession(
          () => `call "${name}"`,
          "call",
          (session) =>
            inputRound === undefined
              ? (traits?.task && session.era === "legacy"
                  ? callAsTask(session.client, request, deadline)
                  : requestWithDeadline<unknown>(
                      session.client,
                      session.era === "2026-07-28" ? this.port.withMeta(request, peer, logs) : request,
                      AnyResultSchema,
                      deadline,
                    )
                ).then(readCallResult)
              : this.callInRound(session, request, deadline, options, inputRound, traits),
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
    };
  }

  /**
   * A call whose caller answers the server's questions itself: in the 2026
   * era the `input_required` result comes back as it is (`questions`); a
   * 2025-era server asks through the call's peer as usual, and cannot be
   * retried with another revision's state.
   */
  private callInRound(
    session: Session,
    request: CallRequest,
    deadline: CallDeadline,
    options: InvokeOptions,
    round: InputRound,
    traits: ToolCallTraits | undefined,
  ): Promise<RemoteCallResult> {
    if (session.era === "2026-07-28") {
      const sent = this.port.withMeta(withRound(request, round), options.peer, options.logs);
      return requestWithDeadline<unknown>(session.client, sent, AnyResultSchema, {
        ...deadline,
        allowInputRequired: true,
      }).then(readRoundResult);
    }
    if (round.kind === "retry") return Promise.reject(retryOnLegacy(this.port.server));
    const plain = traits?.task
      ? callAsTask(session.client, request, deadline)
      : requestWithDeadline<unknown>(session.client, request, AnyResultSchema, deadline);
    return plain.then(readCallResult);
  }
}
