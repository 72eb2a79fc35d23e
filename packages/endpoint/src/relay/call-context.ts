/**
 * Which call a piece of work belongs to, by async context: `invoke` runs each
 * call in its own scope, and a server's request for input (elicitation,
 * sampling, roots) that arrives in that context belongs to that call's client.
 *
 * Where the context comes from:
 * - a response runs in the scope of the request it answers (see
 *   `callScopedTransport`): in the 2026 era the SDK answers an
 *   `input_required` result through the client's handlers from inside the
 *   response, so those handlers run in the calling scope on every transport;
 * - over Streamable HTTP a 2025-era server request (or log message) sent on
 *   a call's own POST stream is read in that POST's continuation, so it runs
 *   in the scope too, as does a 2026-era call's log on its response stream;
 * - everything else (a stdio server's 2025-era requests, HTTP's standalone
 *   GET stream) runs outside any call: sessions are started through
 *   `outsideCalls`, so a process spawned or a stream opened during a
 *   reconnect inside some call never inherits that call's scope.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { CallLogs, ClientHostHooks, ProtocolEra, TransportKind } from "@indus/contract";
import type { Transport } from "@modelcontextprotocol/client";
import { tapTransport } from "../transport-tap";

/**
 * One call in flight: the client it runs for (`undefined`: the endpoint's own
 * host), and where the server's log messages caused by it go (`undefined`:
 * the endpoint's `onLog` listeners).
 */
export interface CallScope {
  readonly relayTo: ClientHostHooks | undefined;
  readonly logs?: CallLogs | undefined;
}

const scopes = new AsyncLocalStorage<CallScope>();

/**
 * Whether a request of the server can arrive in the async context of the
 * call that caused it: always, but on a live 2025-era stdio process, whose
 * requests are read from its stdout outside every call (an injected
 * transport may deliver in the caller's context).
 */
export function callsCanBeScoped(
  session: { readonly kind: TransportKind; readonly era: ProtocolEra } | undefined,
  injected: boolean,
): boolean {
  return session === undefined || injected || session.kind !== "stdio" || session.era !== "legacy";
}

export function currentCall(): CallScope | undefined {
  return scopes.getStore();
}

export function runInCall<T>(scope: CallScope, work: () => T): T {
  return scopes.run(scope, work);
}

/** Run `work`, and whatever it starts, outside any call's scope. */
export function outsideCalls<T>(work: () => T): T {
  return scopes.exit(work);
}

/** The fields read here, on any JSON-RPC message. */
interface Message {
  readonly id?: string | number | undefined;
  readonly method?: string | undefined;
  readonly params?: { readonly requestId?: string | number | undefined } | undefined;
}

/**
 * `transport` delivering each response in the scope of the call that sent
 * its request, while `active()` (the 2026 era: a 2025-era response never
 * runs a handler). Only requests sent inside a call are remembered; a
 * cancellation or close forgets them.
 */
export function callScopedTransport(transport: Transport, active: () => boolean): Transport {
  const pending = new Map<string | number, CallScope>();
  return tapTransport(transport, {
    sending: (message) => {
      const { id, method, params } = message as Message;
      if (method === undefined) return;
      if (id !== undefined && active()) {
        const scope = scopes.getStore();
        if (scope) pending.set(id, scope);
      } else if (method === "notifications/cancelled" && params?.requestId !== undefined) {
        pending.delete(params.requestId);
      }
    },
    inbound: (deliver) => (message, extra) => {
      const { id, method } = message as Message;
      const scope = id !== undefined && method === undefined && pending.size > 0 ? pending.get(id) : undefined;
      if (scope === undefined) return deliver(message, extra);
      pending.delete(id!);
      return scopes.run(scope, () => deliver(message, extra));
    },
    closing: () => pending.clear(),
  });
}
