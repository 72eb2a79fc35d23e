/**
 * One tool call running in the box, apart from the request(s) it answers. A
 * 2025-era call is answered by one request; a 2026-07-28 call that needs its
 * client's input spans several (each `input_required` round is a new request,
 * with its own signal and progress token), so the run outlives each of them:
 * a round attaches, and the run reports to whichever round is attached.
 */
import { randomUUID } from "node:crypto";
import type { UpstreamCall } from "../observe/request-record";
import type {
  CallLogs,
  ClientHostHooks,
  InputRound,
  JsonValue,
  RunOptions,
  TaskMode,
  ToolBox,
  ToolOutcome,
  ToolProgress,
} from "@indus/contract";
import { ProtocolError } from "@modelcontextprotocol/server";
import type { ProgressToken, ServerContext } from "@modelcontextprotocol/server";
import { downstreamRpcError } from "../rpc-errors";

type ProgressNotification = {
  method: "notifications/progress";
  params: { progressToken: ProgressToken; progress: number; total?: number; message?: string };
};

/** The request currently answering a run. */
export interface Round {
  /** The round's abort ends the run (the client cancelled). */
  detach(): void;
  /** Resolves once the last progress sent on this round is written (before the result: typescript-sdk#2580). */
  flushed(): Promise<void>;
}

/** Ids of runs no client ever names back: unique in the process, and cheap (a run per call). */
const RUN_ID_PREFIX = `run-${randomUUID()}-`;
let runs = 0;

/** What a run may carry besides its relayTo: the logs channel, what it is to a 2026-era server, the gateway request's trace. */
export interface RunExtras {
  readonly logs?: CallLogs | undefined;
  readonly modern?: ModernCall | undefined;
  readonly upstream?: UpstreamCall | undefined;
}

export class CallRun {
  readonly controller = new AbortController();
  private outcome: Promise<ToolOutcome> | undefined;
  private report: ((progress: ToolProgress) => void) | undefined;
  private lastProgress = Number.NEGATIVE_INFINITY;

  /** `id`: the runner's call id; one a client is given back (a `requestState`) must be unguessable. */
  constructor(
    readonly name: string,
    private readonly input: unknown,
    readonly id: string = `${RUN_ID_PREFIX}${++runs}`,
  ) {}

  /**
   * Starts the runner once (later calls return the same outcome). Progress
   * is asked of it only when the first request wants some; `logs` is the
   * caller's channel for the servers' log messages the call causes;
   * `modern`, what the call is to a 2026-era server's questions and tasks.
   */
  start(box: ToolBox, relayTo: ClientHostHooks, { logs, modern, upstream }: RunExtras = {}): Promise<ToolOutcome> {
    if (this.outcome !== undefined) return this.outcome;
    const signal = this.controller.signal;
    const onProgress = this.report === undefined ? undefined : (p: ToolProgress) => this.progress(p);
    const options = runOptions(signal, relayTo, onProgress, logs);
    // Only a 2026-07-28 call has a round (its servers' questions handed back) and says what a task is to it.
    if (modern !== undefined) withModern(options, modern);
    // A gateway request's trace goes on to the server the call reaches.
    if (upstream !== undefined) options.trace = upstream.trace;
    this.outcome = runSafely(box, { id: this.id, name: this.name, input: this.input }, options);
    if (upstream !== undefined) {
      this.outcome.then(
        (outcome) => upstream.end(outcome.isError),
        () => upstream.end(true),
      );
    }
    return this.outcome;
  }

  /** Makes `ctx`'s request the one the run reports to and is cancelled by. */
  attach(ctx: ServerContext): Round {
    const signal = ctx.mcpReq.signal;
    const abort = () => this.controller.abort(signal.reason);
    if (signal.aborted) abort();
    else signal.addEventListener("abort", abort, { once: true });
    let last: Promise<void> | undefined;
    const token = ctx.mcpReq._meta?.progressToken;
    const report =
      token === undefined
        ? undefined
        : (progress: ToolProgress) => {
            last = ctx.mcpReq.notify(progressNotification(token, progress)).catch(() => {});
          };
    this.report = report;
    return {
      detach: () => {
        signal.removeEventListener("abort", abort);
        if (this.report === report) this.report = undefined;
      },
      flushed: () => last ?? Promise.resolve(),
    };
  }

  /** MCP requires progress to increase: a report that does not is dropped rather than forwarded. */
  private progress(progress: ToolProgress): void {
    if (!Number.isFinite(progress.progress) || progress.progress <= this.lastProgress) return;
    this.lastProgress = progress.progress;
    this.report?.(progress);
  }
}

/** What a 2026-07-28 call is to its servers' questions (`inputRound`) and to a task (`tasks`). */
export interface ModernCall {
  readonly inputRound?: InputRound;
  readonly tasks: TaskMode;
}

/** Run options being put together (a call's own object, until it is handed to the runner). */
type BuildingOptions = { -readonly [K in keyof RunOptions]: RunOptions[K] };

/**
 * The run's options, each a literal of one shape; what a 2026-07-28 call or a
 * traced one adds is set on it. Object spreads cost a call a slow runtime copy
 * per property (in the gateway's profile, the 2026 call's spreads were ~1 % of
 * its CPU), so none is on the call path.
 */
function runOptions(
  signal: AbortSignal,
  relayTo: ClientHostHooks,
  onProgress: ((progress: ToolProgress) => void) | undefined,
  logs: CallLogs | undefined,
): BuildingOptions {
  if (logs === undefined) return onProgress === undefined ? { signal, relayTo } : { signal, relayTo, onProgress };
  return onProgress === undefined ? { signal, relayTo, logs } : { signal, relayTo, onProgress, logs };
}

/** What a 2026-07-28 call is to its servers, set on its options (no `inputRound` key when it has none). */
function withModern(options: BuildingOptions, modern: ModernCall): void {
  if (modern.inputRound !== undefined) options.inputRound = modern.inputRound;
  options.tasks = modern.tasks;
}

function progressNotification(token: ProgressToken, progress: ToolProgress): ProgressNotification {
  const params: ProgressNotification["params"] = { progressToken: token, progress: progress.progress };
  if (progress.total !== undefined) params.total = progress.total;
  if (progress.message !== undefined) params.message = progress.message;
  return { method: "notifications/progress", params };
}

/**
 * The runner promises never to reject; a host must not trust that blindly.
 * A rejection carrying a JSON-RPC code (a mounted server's own error) is
 * answered with that code; any other becomes a tool error the model can read.
 */
async function runSafely(
  box: ToolBox,
  call: { id: string; name: string; input: unknown },
  options: RunOptions,
): Promise<ToolOutcome> {
  try {
    return await box.runner.run(call, options);
  } catch (error) {
    const outcome = rejectionOutcome(call, error);
    const rpcError = outcome.rpcError;
    if (rpcError !== undefined) throw new ProtocolError(rpcError.code, rpcError.message, rpcError.data);
    return outcome;
  }
}

/**
 * What a call that failed instead of answering is answered with (a runner's
 * rejection, a raw call's fault): a tool error the model can read, carrying
 * the mounted server's JSON-RPC error when the failure has one.
 */
export function rejectionOutcome(call: { id: string; name: string }, error: unknown): ToolOutcome {
  const message = error instanceof Error ? error.message : String(error);
  const text = `Tool '${call.name}' failed: ${message}`;
  const failed: ToolOutcome = { callId: call.id, content: [{ type: "text", text }], isError: true };
  const downstream = downstreamRpcError(error);
  if (downstream === undefined) return failed;
  const data = downstream.data === undefined ? {} : { data: downstream.data as JsonValue };
  return { ...failed, rpcError: { code: downstream.code, message, ...data } };
}
