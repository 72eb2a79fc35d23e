/**
 * Running one tool call: the call, its options, its outcome and the runner
 * that fulfils it. Apart from the tool box so the gateway catalog can hand
 * out a runner too.
 */
import type { JsonObject, JsonValue } from "./json";
import type { ClientHostHooks } from "./client-host";
import type { CallLogs, LogLevel } from "./call-logs";
import type { InputRound, ServerQuestions } from "./input-round";
import type { TraceContext } from "./gateway-access";
import type { CreatedTask, TaskMode, TaskView } from "./task";

/** One request from the model to run a tool. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

/**
 * A content block of a tool result: text for the model to read, or any other
 * JSON value (MCP images, audio and resources ride here untouched).
 */
export type ToolContentBlock =
  { readonly type: "text"; readonly text: string } | { readonly type: "json"; readonly value: JsonValue };

/** What a tool produces. */
export interface ToolResult {
  readonly content: readonly ToolContentBlock[];
  readonly isError?: boolean;
  /** Structured output, when the tool declares an output schema. */
  readonly structuredContent?: { readonly [key: string]: JsonValue };
  /**
   * The MCP `CallToolResult` exactly as the server sent it (every content
   * block, `structuredContent`, `_meta`), when a remote server produced it;
   * a gateway returns it unchanged.
   */
  readonly wire?: JsonObject;
  /**
   * The JSON-RPC error a remote server answered the call with instead of a
   * result (`content` says the same for a model); a gateway answers its own
   * client with this error, so the client sees what the server said (e.g.
   * -32021, a capability the client must declare).
   */
  readonly rpcError?: RpcError;
  /**
   * The server's questions for the caller, when the call asked for them
   * (`RunOptions.inputRound`) and the server answered `input_required`
   * (`content` says so for a model, as an error).
   */
  readonly questions?: ServerQuestions;
  /**
   * The task the server created for the call, when the call asked for it
   * back (`RunOptions.tasks` `hand-back`; `content` says so for a model).
   */
  readonly task?: CreatedTask;
}

/** A JSON-RPC error as a server sent it. */
export interface RpcError {
  readonly code: number;
  readonly message: string;
  readonly data?: JsonValue;
}

/** A runner's answer to one call: the result, tagged with the call it answers. */
export interface ToolOutcome extends ToolResult {
  readonly callId: string;
  readonly isError: boolean;
}

/** Progress a long-running tool reports (MCP `notifications/progress`). */
export interface ToolProgress {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

export interface RunOptions {
  /** Aborting cancels the call; the tool must stop and resolve promptly. */
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: ToolProgress) => void;
  /**
   * The client this call runs for. A server's requests made during the call
   * (elicitation, sampling, roots) go to it, and only to it; a hook it
   * leaves out is a capability that client lacks.
   */
  readonly relayTo?: ClientHostHooks;
  /** The caller's channel for the server's log messages caused by this call (see `CallLogs`). */
  readonly logs?: CallLogs;
  /** The caller answers a 2026-07-28 server's questions itself: the outcome hands them back (`questions`). */
  readonly inputRound?: InputRound;
  /** The trace the call belongs to: a remote server gets it in the request's `_meta`. */
  readonly trace?: TraceContext;
  /** What the call does when its server answers with a task (see `TaskMode`; default `drive`). */
  readonly tasks?: TaskMode;
  /** The call became a task, or its task changed status or message (`drive` mode). */
  readonly onTask?: (task: TaskView) => void;
}

/** Fulfils calls by name. Never rejects: failures are `isError` outcomes. */
export interface ToolRunner {
  run(call: ToolCall, options?: RunOptions): Promise<ToolOutcome>;
  /**
   * Takes a call raw when the tool's server can (see `ForwardRaw`); absent
   * or `undefined`: the call takes `run`.
   */
  readonly forwardRaw?: ForwardRaw;
}

/*
 * The pass-through port of a stdio gateway (see
 * `docs/decisions/raw-call-forwarding.md`): a `tools/call` the gateway passes
 * on unchanged but for the tool's name and the request id is handed down the
 * box as it came, and the server's answer comes back as the server sent it,
 * instead of each SDK stack parsing, validating and rebuilding both. Every
 * layer may decline (return `undefined`): the call then takes the normal
 * path, which is always correct. One request and its answer, never a
 * protocol of our own.
 */

/** A `tools/call` taken raw, as a box layer sees it. */
export interface RawCall {
  /** The tool's name at this layer (published above the fleet, server-side below it). */
  readonly name: string;
  /** The arguments exactly as the client sent them. */
  readonly arguments: JsonObject;
  /**
   * The least severe level the client takes the call's logs at; absent: none.
   * A 2026-07-28 server is asked for them per request, as the normal path asks.
   */
  readonly logLevel?: LogLevel;
  /** Called once, with the answer (never after `cancel`). */
  readonly answer: (answer: RawAnswer) => void;
}

/**
 * The answer to a raw call: the server's result as it sent it, or what the
 * normal path would have made of anything else (its JSON-RPC error, a
 * deadline, a lost connection) at the layer that knows how.
 */
export type RawAnswer =
  | { readonly kind: "result"; readonly result: JsonObject }
  | { readonly kind: "outcome"; readonly outcome: ToolOutcome }
  | { readonly kind: "fault"; readonly error: unknown };

/** A raw call under way. */
export interface RawForward {
  /** The client cancelled: the server is told, and no answer follows. */
  cancel(reason: string): void;
}

/** A box layer or endpoint that can take a call raw; `undefined`: not this one, take the normal path. */
export type ForwardRaw = (call: RawCall) => RawForward | undefined;
