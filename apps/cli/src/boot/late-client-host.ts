/**
 * The gateway's answer to its mounted servers' requests (elicitation,
 * sampling, roots) has to exist before the servers connect, since each
 * endpoint declares these capabilities in its handshake, but the clients who
 * answer arrive only once the provider host serves. So boot gets these hooks,
 * all three with both elicitation modes, and `bind` points them at the
 * running host's own hooks later. A request before then, or one the bound
 * hooks lack, fails with a fault saying no client can answer it. A request's
 * signal goes through too: a question its server withdraws is withdrawn there.
 */
import { APP_VIEW_MIME_TYPE, protocolFault, type ClientHostHooks, type JsonObject } from "@indus/contract";

export interface LateClientHost {
  /** Give these to boot (`clientHost`): every hook, forwarding to whatever is bound. */
  readonly hooks: ClientHostHooks;
  /** Forward from now on to `target` (the provider host's hooks for its clients). */
  bind(target: ClientHostHooks): void;
}

function noClient(method: string, server: string): Error {
  return protocolFault(
    "not-connected",
    `server "${server}" sent ${method}, but no gateway client that can answer it is connected`,
    undefined,
    { server },
  );
}

export function lateClientHost(): LateClientHost {
  let target: ClientHostHooks = {};
  const hooks: ClientHostHooks = {
    elicit: (server: string, params: JsonObject, signal?: AbortSignal) =>
      target.elicit ? target.elicit(server, params, signal) : Promise.reject(noClient("elicitation/create", server)),
    createMessage: (server: string, params: JsonObject, signal?: AbortSignal) =>
      target.createMessage
        ? target.createMessage(server, params, signal)
        : Promise.reject(noClient("sampling/createMessage", server)),
    listRoots: (server: string, signal?: AbortSignal) =>
      target.listRoots ? target.listRoots(server, signal) : Promise.reject(noClient("roots/list", server)),
    elicitModes: ["form", "url"],
    // The gateway relays MCP App views byte-identical to its clients (a 2026-era call carries its own client's say).
    appViews: [APP_VIEW_MIME_TYPE],
  };
  return {
    hooks,
    bind: (next) => {
      target = next;
    },
  };
}
