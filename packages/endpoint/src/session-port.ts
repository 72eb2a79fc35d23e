/**
 * What the endpoint's requests (tool calls, catalog requests) need of it,
 * and no more: the live session, run with the endpoint's recovery and fault
 * classification, and the call's relayTo. Handed to them instead of the
 * endpoint itself, so they never reach its lifecycle (see `session-access.ts`).
 */
import type { CallLogs, ClientHostHooks, JsonObject } from "@indus/contract";
import type { ServerCapabilities } from "@modelcontextprotocol/client";
import type { EndpointTimeouts } from "./endpoint-options";
import type { FaultSite } from "./faults/fault-sites";
import type { Session } from "./session";
import type { QuestionMethod } from "./relay/client-host";
import type { ClientWaits } from "./relay/client-waits";

/** Where a request on a live session fails (connecting is the lifecycle's). */
export type RequestSite = Exclude<FaultSite, "connect">;

/** A request's description in its `not-connected` fault, built only when needed. */
export type RequestWhat = string | (() => string);

export interface SessionPort {
  readonly server: string;
  readonly timeouts: EndpointTimeouts;
  /** The server's questions open with a client (a call's idle deadline pauses for them). */
  readonly clientWaits: ClientWaits;
  /** The live session, if any, in whatever phase. */
  current(): Session | undefined;
  /** The live session of a ready endpoint, or a `not-connected` fault naming `what`. */
  readySession(what: RequestWhat): Session;
  /** Run `op` on the live session, recovering a lost one once; errors become faults for `site`. */
  onSession<T>(what: RequestWhat, site: RequestSite, op: (session: Session) => Promise<T>): Promise<T>;
  /** Run `work` as a call of `relayTo`, whose logs go to `logs` (see `relay-routing.ts`). */
  during<T>(relayTo: ClientHostHooks | undefined, work: () => Promise<T>, logs?: CallLogs): Promise<T>;
  /** A 2026-era request with `relayTo`'s capabilities and the log level in `_meta` (see `request-meta.ts`). */
  withMeta<R extends { params: Record<string, unknown> }>(
    request: R,
    relayTo: ClientHostHooks | undefined,
    logs: CallLogs | undefined,
    tasks?: boolean,
  ): R;
  /** Asks one question of a 2026-era task through the host hooks (see `answerQuestion`). */
  answer(method: QuestionMethod, params: JsonObject, signal: AbortSignal, key: string): Promise<JsonObject>;
  /** The capabilities the server declared in its handshake. */
  capabilities(): ServerCapabilities | undefined;
}
