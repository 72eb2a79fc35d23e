/**
 * One `tools/call` through the box: argument check, cancellation, progress
 * with the caller's own token, the caller as the call's relayTo (the mounted
 * server's requests during the call go to this client and no other), and
 * the result as the tool's server sent it when it came from one. A 2025-era
 * call is one request; a 2026-07-28 call whose server asks its client
 * something spans several (see `input-rounds`).
 */
import { LOG_LEVELS } from "@indus/contract";
import type { CallLogs, ClientHostHooks, JsonObject, LogLevel, TaskMode, ToolBox, ToolOutcome } from "@indus/contract";
import {
  CLIENT_CAPABILITIES_META_KEY,
  LOG_LEVEL_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  inputRequired,
} from "@modelcontextprotocol/server";
import type { CallToolRequest, CallToolResult, ClientCapabilities, ServerContext } from "@modelcontextprotocol/server";
import type { ArgumentValidator } from "./argument-validator";
import { hearsServer } from "../access/caller-box";
import { CallRun } from "./call-run";
import { upstreamOf } from "../observe/exchanges";
import { findDescriptor } from "./descriptor-index";
import { RoundTripCall, resumeOrStart } from "./input-rounds";
import type { InputRounds } from "./input-rounds";
import type { LogRelay } from "../relay/log-relay";
import { passedThrough } from "./passed-state";
import { declaresTasks, type TaskRelay } from "./task-relay";
import { CONNECTION_CLOSED } from "../rpc-errors";
import { toCallToolResult, toolErrorResult } from "./tool-mapping";

/** What one call needs from the instance serving it. */
export interface CallScope {
  readonly box: ToolBox;
  readonly validator: ArgumentValidator | undefined;
  /** Running calls of the instance: each one's abort handle and its settling. */
  readonly calls: Map<AbortController, Promise<void>>;
  /** The calling 2025-era client as hooks (only what it declared), sent as requests related to the call. */
  relayToFor(ctx: ServerContext, signal: AbortSignal): ClientHostHooks;
  /** 2026-07-28 calls waiting for their client between rounds (shared by the host's instances). */
  readonly rounds: InputRounds;
  /** The calling 2025-era client's channel for the call's log messages (none before it initialized). */
  logsFor(ctx: ServerContext): CallLogs | undefined;
  /** Log messages no call claims (a 2026-07-28 call hears them while it runs). */
  readonly logRelay: LogRelay;
  /** The Tasks extension, when the box's servers' tasks can be followed through it (see `task-relay`). */
  readonly tasks: TaskRelay | undefined;
  /** Answers of calls taken raw, by request id: such a request is answered with its answer, never run. */
  readonly preAnswered?: Map<string | number, PreAnswer>;
}

/** A raw call's answer the server is to give as its own: the server's result as sent, or the runner's outcome. */
export type PreAnswer =
  | { readonly result: JsonObject }
  | { readonly outcome: ToolOutcome }
  /** The host interrupted the call (it is shutting down): answered as `finish` answers one. */
  | { readonly interrupted: string };

type CallResult = CallToolResult | ReturnType<typeof inputRequired>;

export async function callTool(
  scope: CallScope,
  params: CallToolRequest["params"],
  ctx: ServerContext,
): Promise<CallResult> {
  const early = scope.preAnswered?.size ? scope.preAnswered.get(ctx.mcpReq.id) : undefined;
  if (early !== undefined) {
    scope.preAnswered!.delete(ctx.mcpReq.id);
    return answerOf(early);
  }
  const name = params.name;
  const input = params.arguments ?? {};
  const descriptor = findDescriptor(scope.box, name);
  if (descriptor === undefined) {
    // A gateway standing in for one server passes unknown names on, so the
    // caller gets that server's own answer; otherwise it is ours to refuse.
    const runner = scope.box.catalog?.unlistedTool?.(name);
    if (runner === undefined) throw unknownTool(scope.box, name);
    const unlisted: CallScope = { ...scope, box: { descriptors: () => [], runner } };
    return isModern(ctx) ? roundTrip(unlisted, name, input, ctx) : oneRequest(unlisted, name, input, ctx);
  }
  // A republished tool is checked by its own server, against its own schema:
  // the gateway must not refuse what that server would accept.
  if (scope.validator !== undefined && descriptor.wire === undefined) {
    const check = await scope.validator.check(descriptor, input);
    if (!check.ok) return toolErrorResult(check.message);
  }
  return isModern(ctx) ? roundTrip(scope, name, input, ctx) : oneRequest(scope, name, input, ctx);
}

/** A raw call's answer as this call's, as `finish` gives a runner's outcome. */
function answerOf(early: PreAnswer): CallResult {
  if ("result" in early) return early.result as unknown as CallToolResult;
  if ("interrupted" in early) throw interrupted(early.interrupted);
  return answerWith(early.outcome);
}

/** -32602 for a name the box does not list, with the box's reason when it knows one (a server still connecting). */
function unknownTool(box: ToolBox, name: string): ProtocolError {
  const why = box.whyUnknown?.(name);
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Unknown tool: ${name}${why === undefined ? "" : ` (${why})`}`,
  );
}

/** A 2025-era call: one request, the client's own answers arriving as related requests. */
async function oneRequest(scope: CallScope, name: string, input: unknown, ctx: ServerContext): Promise<CallResult> {
  const run = new CallRun(name, input);
  const round = run.attach(ctx);
  const done = tracked(scope, run);
  try {
    const relayTo = scope.relayToFor(ctx, run.controller.signal);
    const outcome = await run.start(scope.box, relayTo, { logs: scope.logsFor(ctx), upstream: upstreamOf(ctx, name) });
    return await finish(run, round.flushed(), ctx, outcome);
  } finally {
    round.detach();
    done();
  }
}

/**
 * A 2026-07-28 call, one round of it: a new call starts the run, a retry
 * (with the `requestState` it was given) answers the run's questions; then
 * the round ends with the result, or with the run's next questions. A
 * 2026-era server's own questions are passed through as they are, with a
 * state any gateway process can retry (nothing waits here); a server asking
 * mid-call (2025 era) keeps its run waiting here between rounds.
 */
async function roundTrip(scope: CallScope, name: string, input: unknown, ctx: ServerContext): Promise<CallResult> {
  const request = `tools/call ${name}`;
  const { call, inputRound } = resumeOrStart(scope.rounds, ctx, {
    name,
    request,
    start: () => new RoundTripCall(name, input, envelopeCapabilities(ctx), envelopeLogLevel(ctx)),
  });
  const round = call.run.attach(ctx);
  call.enter(ctx);
  const done = tracked(scope, call.run);
  try {
    // A client that declared the Tasks extension takes a task back (the gateway's, see `task-relay`); one that did not is not offered one.
    const tasks: TaskMode = scope.tasks !== undefined && declaresTasks(ctx) ? "hand-back" : "off";
    const modern = inputRound === undefined ? { tasks } : { inputRound, tasks };
    const outcome = call.run.start(scope.box, call.relayTo, {
      logs: call.logs,
      modern,
      upstream: upstreamOf(ctx, name),
    });
    // The instance is the client: one per stdio connection, one per request over HTTP.
    if (inputRound !== undefined) {
      scope.logRelay.hearDuring(call.logs, outcome, scope, (server) => hearsServer(scope.box, server));
    }
    const end = await call.next(outcome);
    if (end.kind === "input") {
      await round.flushed();
      return inputRequired({ inputRequests: end.requests, requestState: scope.rounds.suspend(call) });
    }
    const result = await outcome;
    if (result.task !== undefined && scope.tasks !== undefined) {
      await round.flushed();
      return (await scope.tasks.created(result.task, ctx)) as CallResult;
    }
    if (result.questions !== undefined) {
      await round.flushed();
      return passedThrough(request, result.questions);
    }
    return await finish(call.run, round.flushed(), ctx, result);
  } finally {
    call.leave(ctx);
    round.detach();
    done();
  }
}

async function finish(run: CallRun, flushed: Promise<void>, ctx: ServerContext, outcome: ToolOutcome) {
  await flushed;
  if (run.controller.signal.aborted && !ctx.mcpReq.signal.aborted) {
    // Interrupted by the host, not by the client: say so, rather than leave
    // the client waiting for an answer that will never come.
    throw interrupted(run.name);
  }
  return answerWith(outcome);
}

/** A runner's outcome as the call's answer: a mounted server's JSON-RPC error is answered as that error, as the server did. */
function answerWith(outcome: ToolOutcome): CallToolResult {
  const rpcError = outcome.rpcError;
  if (rpcError !== undefined) throw new ProtocolError(rpcError.code, rpcError.message, rpcError.data);
  return toCallToolResult(outcome);
}

function interrupted(name: string): ProtocolError {
  return new ProtocolError(CONNECTION_CLOSED, `Call to '${name}' interrupted: the provider host is shutting down`);
}

/** Counts the run among the instance's running calls (for shutdown) while this request serves it. */
function tracked(scope: CallScope, run: CallRun): () => void {
  let settle!: () => void;
  scope.calls.set(run.controller, new Promise<void>((resolve) => (settle = resolve)));
  return () => {
    scope.calls.delete(run.controller);
    settle();
  };
}

/** The per-request `_meta` envelope (the SDK types it as an empty object). */
function envelopeOf(ctx: ServerContext): Readonly<Record<string, unknown>> | undefined {
  return ctx.mcpReq.envelope;
}

/** 2026-07-28 requests carry the per-request envelope; 2025-era ones never do. */
export function isModern(ctx: ServerContext): boolean {
  return envelopeOf(ctx)?.[PROTOCOL_VERSION_META_KEY] !== undefined;
}

/** The level a 2026-07-28 request takes logs at (absent or not a level: none). */
export function envelopeLogLevel(ctx: ServerContext): LogLevel | undefined {
  const level = envelopeOf(ctx)?.[LOG_LEVEL_META_KEY];
  return (LOG_LEVELS as readonly unknown[]).includes(level) ? (level as LogLevel) : undefined;
}

/** The client capabilities a 2026-07-28 request declares. */
export function envelopeCapabilities(ctx: ServerContext): ClientCapabilities | undefined {
  return envelopeOf(ctx)?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
}
