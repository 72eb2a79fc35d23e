/**
 * The 2026-07-28 revision has no server→client requests: when a mounted
 * server asks the calling client something during a call, the call answers
 * `input_required` (the questions, and a `requestState` naming the run), the
 * client answers them and sends the call again with `inputResponses`, and the
 * run, which kept going in the meantime, gets its answers and carries on.
 * This is the SDK's multi-round-trip flow; the difference from an SDK
 * handler is that the run is not re-entered but waits here between rounds,
 * so a retry must reach this process (as a legacy session must). Only a
 * server that asks mid-call (2025 era) needs that: a 2026-era server's own
 * `input_required` rounds are passed through, and nothing waits here (see
 * `passed-state`).
 */
import { randomUUID } from "node:crypto";
import type { CallLogs, ClientHostHooks, InputRound, JsonObject, LogLevel } from "@indus/contract";
import { protocolFault } from "@indus/contract";
import { ProtocolError, ProtocolErrorCode, inputRequired } from "@modelcontextprotocol/server";
import type { ClientCapabilities, InputRequest, InputRequests, ServerContext } from "@modelcontextprotocol/server";
import { CallRun } from "./call-run";
import { NO_LOGS, RoundLogs } from "../relay/call-logs";
import { isPassedState, serverStateOf } from "./passed-state";
import { relayHooks } from "../relay/relay-hooks";
import type { RelayMethod } from "../relay/relay-hooks";

/** How long a run waits for its client to come back with answers (the SDK's own per-leg default). */
export const ROUND_TIMEOUT_MS = 600_000;

interface Ask {
  readonly key: string;
  readonly request: InputRequest;
  readonly resolve: (answer: JsonObject) => void;
  readonly reject: (error: unknown) => void;
}

/** What the run did next: finished, or asked its client something. */
export type RoundEnd = { readonly kind: "done" } | { readonly kind: "input"; readonly requests: InputRequests };

/** A call whose client is reached only through its own rounds. */
export class RoundTripCall {
  readonly run: CallRun;
  readonly relayTo: ClientHostHooks;
  /** The call's log messages, at the level its first request asked for, on the round answering it now. */
  readonly logs: CallLogs;
  private readonly rounds: RoundLogs | undefined;
  private work: Promise<unknown> | undefined;
  private queued: Ask[] = [];
  private sent = new Map<string, Ask>();
  private wake: (() => void) | undefined;
  private asked = 0;

  constructor(
    name: string,
    input: unknown,
    capabilities: ClientCapabilities | undefined,
    logLevel: LogLevel | undefined,
  ) {
    // The run's id is the `requestState` its client is given: it must not be guessable.
    this.run = new CallRun(name, input, randomUUID());
    this.relayTo = relayHooks(capabilities, (method, params, signal, key) => this.ask(method, params, signal, key));
    this.rounds = logLevel === undefined ? undefined : new RoundLogs(logLevel);
    this.logs = this.rounds ?? NO_LOGS;
  }

  /** `ctx` is the request answering the call now (its log messages go there). */
  enter(ctx: ServerContext): void {
    this.rounds?.enter(ctx);
  }

  /** `ctx` answered: messages wait for the next round. */
  leave(ctx: ServerContext): void {
    this.rounds?.leave(ctx);
  }

  /**
   * Resolves when `outcome` settles or the run has questions, whichever comes
   * first (a question withdrawn before its round went out is not one).
   */
  async next(outcome: Promise<unknown>): Promise<RoundEnd> {
    let settled = false;
    const ended = outcome.then(
      () => void (settled = true),
      () => void (settled = true),
    );
    for (;;) {
      if (this.queued.length === 0) {
        if (settled) return { kind: "done" };
        const woken = new Promise<void>((resolve) => (this.wake = resolve));
        await Promise.race([ended, woken]);
        this.wake = undefined;
        continue;
      }
      // Questions asked together (in one tick) travel in one round.
      await new Promise((resolve) => setImmediate(resolve));
      if (this.queued.length > 0) break;
    }
    const requests: InputRequests = {};
    for (const ask of this.queued.splice(0)) {
      requests[ask.key] = ask.request;
      this.sent.set(ask.key, ask);
    }
    return { kind: "input", requests };
  }

  /** Starts `work` on the first round; later rounds get the same promise. */
  once<T>(work: () => Promise<T>): Promise<T> {
    this.work ??= work();
    return this.work as Promise<T>;
  }

  /** The client's answers to the last round's questions; one it left out fails that question. */
  answer(responses: Record<string, unknown> | undefined): void {
    for (const [key, ask] of this.sent) {
      const response = responses?.[key];
      if (response !== null && typeof response === "object" && !Array.isArray(response)) {
        ask.resolve(response as JsonObject);
      } else {
        ask.reject(protocolFault("protocol", `the client sent the call again without answering '${key}'`));
      }
    }
    this.sent.clear();
  }

  /** Ends the run: its client is gone. */
  abandon(reason: unknown): void {
    for (const ask of [...this.sent.values(), ...this.queued.splice(0)]) ask.reject(reason);
    this.sent.clear();
    this.run.controller.abort(reason);
  }

  /**
   * Queues a question for the next round. Withdrawn (`signal`) before the
   * round goes out, it never does; after, the client's answer is ignored
   * (the revision has no way to take back a question once asked).
   */
  private ask(method: RelayMethod, params: JsonObject, signal?: AbortSignal, serverKey?: string): Promise<JsonObject> {
    return new Promise((resolve, reject) => {
      const key = this.keyFor(serverKey);
      const ask: Ask = { key, request: inputRequestOf(method, params), resolve, reject };
      if (signal !== undefined) {
        if (signal.aborted) return reject(withdrawn(method, signal));
        signal.addEventListener("abort", () => this.withdraw(ask, withdrawn(method, signal)), { once: true });
      }
      this.queued.push(ask);
      this.wake?.();
    });
  }

  /** The server's own key for a question when it gave one not in use; else one of ours. */
  private keyFor(serverKey: string | undefined): string {
    const taken = (key: string) => this.sent.has(key) || this.queued.some((ask) => ask.key === key);
    if (serverKey !== undefined && serverKey !== "" && !taken(serverKey)) return serverKey;
    let key: string;
    do key = `ask-${++this.asked}`;
    while (taken(key));
    return key;
  }

  private withdraw(ask: Ask, reason: unknown): void {
    const queued = this.queued.indexOf(ask);
    if (queued >= 0) this.queued.splice(queued, 1);
    else if (this.sent.get(ask.key) === ask) this.sent.delete(ask.key);
    else return;
    ask.reject(reason);
  }
}

/** Runs waiting between rounds, by the `requestState` their client was given. */
export class InputRounds {
  private readonly waiting = new Map<string, { call: RoundTripCall; timer: NodeJS.Timeout }>();

  /**
   * Parks `call` until its client comes back; returns the `requestState` to
   * give it, new each round, so a state already answered cannot resume the
   * run again (and a client sees that the run moved on).
   */
  suspend(call: RoundTripCall): string {
    const state = randomUUID();
    const timer = setTimeout(() => {
      this.waiting.delete(state);
      call.abandon(protocolFault("timeout", `the client did not come back to '${call.run.name}' with answers in time`));
    }, ROUND_TIMEOUT_MS);
    timer.unref();
    this.waiting.set(state, { call, timer });
    return state;
  }

  /** The run `state` names, when it is a call of `name` still waiting. */
  resume(state: string, name: string): RoundTripCall | undefined {
    const entry = this.waiting.get(state);
    if (entry === undefined || entry.call.run.name !== name) return undefined;
    this.waiting.delete(state);
    clearTimeout(entry.timer);
    return entry.call;
  }

  /** Ends every waiting run (the host is closing). */
  abandonAll(reason: unknown): void {
    for (const { call, timer } of this.waiting.values()) {
      clearTimeout(timer);
      call.abandon(reason);
    }
    this.waiting.clear();
  }
}

/** A first request: a 2026-era server's questions are handed back, to be passed to the client. */
const HAND_BACK: InputRound = { kind: "hand-back" };

/** A request that may run in rounds: what it names, how passed states name it, and how its run starts. */
export interface RoundRequest {
  readonly name: string;
  readonly request: string;
  readonly start: () => RoundTripCall;
}

/**
 * The run a 2026-07-28 request belongs to, and the round it is to its
 * servers (`inputRound`, absent when resumed). A first request starts a run
 * (`start`); a retry of a passed-through round (see `passed-state`) starts
 * one too, with the client's answers and the server's own state for it; a
 * retry naming a waiting run of `name` resumes it with the client's answers.
 * `request` names the request in passed states (`tools/call <name>`, ...). A
 * state naming no run waiting here is refused -32602, saying why.
 */
export function resumeOrStart(
  rounds: InputRounds,
  ctx: ServerContext,
  { name, request, start }: RoundRequest,
): { readonly call: RoundTripCall; readonly inputRound: InputRound | undefined } {
  const state = ctx.mcpReq.requestState();
  if (typeof state !== "string") return { call: start(), inputRound: HAND_BACK };
  if (isPassedState(state)) {
    const serverState = serverStateOf(state, request);
    const inputResponses = (ctx.mcpReq.inputResponses ?? {}) as JsonObject;
    const inputRound: InputRound =
      serverState === undefined
        ? { kind: "retry", inputResponses }
        : { kind: "retry", inputResponses, requestState: serverState };
    return { call: start(), inputRound };
  }
  const resumed = rounds.resume(state, name);
  if (resumed === undefined) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      "Invalid or expired requestState: no call waits for it in this gateway process (answered already, timed out, " +
        "or started in another one: a call whose server asks mid-call, as 2025-era servers do, waits in the gateway " +
        "process that started it, so behind --stateless replicas only servers of the 2026-07-28 era can ask " +
        "questions statelessly)",
      { reason: "invalid_request_state" },
    );
  }
  resumed.answer(ctx.mcpReq.inputResponses);
  return { call: resumed, inputRound: undefined };
}

/** A mounted server's request as an embedded request of the 2026-07-28 flow. */
function inputRequestOf(method: RelayMethod, params: JsonObject): InputRequest {
  switch (method) {
    case "elicitation/create": {
      if (params.mode !== "url")
        return inputRequired.elicit(params as unknown as Parameters<typeof inputRequired.elicit>[0]);
      // 2026-07-28 URL mode has no elicitationId: the run itself is the correlation.
      const { mode: _mode, elicitationId: _id, ...rest } = params;
      return inputRequired.elicitUrl(rest as unknown as Parameters<typeof inputRequired.elicitUrl>[0]);
    }
    case "sampling/createMessage":
      return inputRequired.createMessage(params as unknown as Parameters<typeof inputRequired.createMessage>[0]);
    case "roots/list":
      return inputRequired.listRoots();
  }
}

function withdrawn(method: RelayMethod, signal: AbortSignal): Error {
  return protocolFault("protocol", `${method} was withdrawn before the client answered`, signal.reason);
}
