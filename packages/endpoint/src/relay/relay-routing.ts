/**
 * Which client answers a server's request for input. A gateway mounts one
 * connection per server for many clients, so a request must reach the client
 * whose call caused it and no other: a wrong guess leaks one client's
 * question, model prompt or workspace roots to another. In order:
 *
 * 1. inside a call's async context (see `call-context.ts`): that call's client;
 * 2. else, with calls in flight that all run for one client: that client
 *    (a call is in flight until its answer is read, not until its caller's
 *    promise settles: see `call-answers.ts`);
 * 3. else, with several clients' calls in flight: the only one of them able to
 *    answer, or a refusal (never a guess);
 * 4. with nothing in flight: the endpoint's own host (`EndpointOptions.host`).
 *
 * A chosen client that cannot answer gets the error the SDK's own server
 * raises for a capability the client lacks: `-32021` with the missing
 * capabilities as `data.requiredCapabilities`.
 */
import type { CallLogs, ClientHostHooks, ElicitationMode } from "@indus/contract";
import {
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type ClientCapabilities,
} from "@modelcontextprotocol/client";
import { DueAnswers, QuestionsRead, type CallAnswerListener, type RequestId } from "./call-answers";
import { currentCall, runInCall, type CallScope } from "./call-context";
import { ClientWaits } from "./client-waits";

/** What a server asked for, as far as choosing a client goes. */
export type InputNeed =
  | { readonly kind: "elicit"; readonly mode: ElicitationMode }
  | { readonly kind: "createMessage" }
  | { readonly kind: "listRoots" };

const METHODS = { elicit: "elicitation/create", createMessage: "sampling/createMessage", listRoots: "roots/list" };
const QUESTIONS: ReadonlySet<string> = new Set(Object.values(METHODS));

/** The elicitation modes a client answers (form unless it says otherwise). */
export function elicitModes(host: ClientHostHooks): readonly ElicitationMode[] {
  return host.elicitModes ?? ["form"];
}

export function canAnswer(host: ClientHostHooks | undefined, need: InputNeed): boolean {
  if (!host) return false;
  switch (need.kind) {
    case "elicit":
      return host.elicit !== undefined && elicitModes(host).includes(need.mode);
    case "createMessage":
      return host.createMessage !== undefined;
    case "listRoots":
      return host.listRoots !== undefined;
  }
}

/** The capabilities a client lacking `need` would have to declare, as the SDK's server names them. */
function required(need: InputNeed): ClientCapabilities {
  switch (need.kind) {
    case "elicit":
      return { elicitation: need.mode === "url" ? { url: {} } : { form: {} } };
    case "createMessage":
      return { sampling: {} };
    case "listRoots":
      return { roots: {} };
  }
}

/** The SDK server's own words for each missing capability. */
function lacking(need: InputNeed): string {
  switch (need.kind) {
    case "elicit":
      return need.mode === "url" ? "URL elicitation" : "elicitation";
    case "createMessage":
      return "sampling";
    case "listRoots":
      return "listing roots";
  }
}

export function missingCapability(need: InputNeed): ProtocolError {
  return new MissingRequiredClientCapabilityError(
    { requiredCapabilities: required(need) },
    `Client does not support ${lacking(need)} (required for ${METHODS[need.kind]})`,
  );
}

/** Tracks one endpoint's calls in flight and picks the client for each request for input. */
export class RelayRouter implements CallAnswerListener {
  private readonly inFlight = new Set<CallScope>();
  /**
   * Calls in flight whose final answer has been read (`call-answers.ts`):
   * still settling for their caller, no longer in flight for the relay.
   */
  private readonly answered = new WeakSet<CallScope>();
  private readonly due = new DueAnswers();
  /** Each question read and not yet routed (by the server's request id): the calls in flight, less those answered, then. */
  private readonly readWith = new QuestionsRead<readonly CallScope[]>();
  /** The call whose work is starting, synchronously, now: a request sent now is its own. */
  private starting: CallScope | undefined;
  /** The server's questions open with a client, which pause its calls' idle deadlines. */
  readonly waits = new ClientWaits();

  /**
   * `scoped` says whether a request of the server can arrive now in the async
   * context of the call that caused it; where none can (a 2025-era stdio
   * process), a scope routes nothing, and entering one makes every promise of
   * the process pay for async context tracking from then on (Node 20/22).
   */
  constructor(
    private readonly server: string,
    private readonly ambient: ClientHostHooks | undefined,
    private readonly scoped: () => boolean = () => true,
  ) {}

  /**
   * Run one call for `relayTo` (absent: the endpoint's own host), counted while
   * in flight, in its own scope when `scoped()`. Without a host, or `logs`
   * to route the call's log messages to, nothing arriving can be routed, so
   * nothing is tracked.
   */
  during<T>(relayTo: ClientHostHooks | undefined, call: () => Promise<T>, logs?: CallLogs): Promise<T> {
    if (!this.ambient && !logs) return call();
    const scope: CallScope = logs ? { relayTo, logs } : { relayTo };
    this.inFlight.add(scope);
    const done = () => {
      this.inFlight.delete(scope);
      this.due.forget(scope);
    };
    const outer = this.starting;
    this.starting = scope;
    let running: Promise<T>;
    try {
      running = this.scoped() ? runInCall(scope, call) : call();
    } catch (error) {
      done();
      throw error;
    } finally {
      this.starting = outer;
    }
    return running.finally(done);
  }

  /** A call's own request (in its scope, or as it starts) is due, and the call in flight again. */
  requestSent(id: RequestId): void {
    const scope = currentCall() ?? this.starting;
    if (scope === undefined || !this.inFlight.has(scope)) return;
    this.due.add(id, scope);
    this.answered.delete(scope);
  }

  requestDropped(id: RequestId): void {
    this.due.take(id);
  }

  /** The final answer to a call's last due request is read: that call is no longer in flight here. */
  answerRead(id: RequestId, final: boolean): void {
    const scope = this.due.take(id);
    if (scope !== undefined && final && !this.due.awaits(scope)) this.answered.add(scope);
  }

  /** A question of the server is read: it is outside the calls answered by then, whenever its handler runs. */
  requestRead(id: RequestId, method: string): void {
    if (QUESTIONS.has(method)) this.readWith.note(id, [...this.unanswered()]);
  }

  connectionClosing(): void {
    this.due.clear();
    this.readWith.clear();
  }

  /** The calls in flight, less those whose answer has been read. */
  private *unanswered(): Iterable<CallScope> {
    for (const scope of this.inFlight) if (!this.answered.has(scope)) yield scope;
  }

  /**
   * Where a log message arriving now goes: the call in whose scope it
   * arrived; else, when `sole` (a 2026-07-28 stdio server, which logs only
   * for requests that asked for a level), the one call in flight that asked
   * for logs, if there is exactly one; else nowhere in particular
   * (`undefined`: the endpoint's `onLog` listeners).
   */
  logsNow(sole: boolean): CallLogs | undefined {
    const scope = currentCall();
    if (scope) return scope.logs;
    if (!sole) return undefined;
    let claimant: CallLogs | undefined;
    // All calls in flight, answered or not: the SDK hands a log to its handler
    // some promise jobs after reading it, by when an answer read just after it
    // (in the same chunk) has already been noted.
    for (const { logs } of this.inFlight) {
      if (logs?.level === undefined) continue;
      if (claimant !== undefined) return undefined;
      claimant = logs;
    }
    return claimant;
  }

  /**
   * The client that answers `need` now, or the JSON-RPC error to answer the
   * server with; `id` is the server's request's, for one that came as a
   * request (its calls in flight are those when it was read).
   */
  choose(need: InputNeed, id?: RequestId): ClientHostHooks | ProtocolError {
    const calls = this.callsWhenRead(id);
    const scope = currentCall();
    const chosen = scope ? (scope.relayTo ?? this.ambient) : this.fromInFlight(need, calls);
    if (chosen instanceof ProtocolError) return chosen;
    return canAnswer(chosen, need) ? chosen! : missingCapability(need);
  }

  /** The calls in flight (less those answered) as the question `id` was read, else now. */
  private callsWhenRead(id: RequestId | undefined): readonly CallScope[] {
    const seen = id === undefined ? undefined : this.readWith.take(id);
    return seen ?? [...this.unanswered()];
  }

  private fromInFlight(need: InputNeed, calls: readonly CallScope[]): ClientHostHooks | undefined | ProtocolError {
    if (calls.length === 0) return this.ambient;
    const clients = oneHooksPerClient(calls.map((scope) => scope.relayTo ?? this.ambient));
    if (clients.length === 1) return clients[0];
    const able = clients.filter((client) => canAnswer(client, need));
    if (able.length === 1) return able[0];
    if (able.length === 0) return missingCapability(need);
    return new ProtocolError(
      ProtocolErrorCode.InternalError,
      `server "${this.server}" sent ${METHODS[need.kind]} outside any one call while ${able.length} clients able to answer have calls in flight; refused rather than guessed (a wrong guess would show one client's request to another)`,
      { reason: "ambiguous-client", server: this.server },
    );
  }
}

/**
 * The latest hooks of each distinct client (`ClientHostHooks.client`, else
 * the hooks object): one client's concurrent calls are still one client.
 */
function oneHooksPerClient(hooks: readonly (ClientHostHooks | undefined)[]): (ClientHostHooks | undefined)[] {
  const byClient = new Map<object | undefined, ClientHostHooks | undefined>();
  for (const each of hooks) byClient.set(each?.client ?? each, each);
  return [...byClient.values()];
}
