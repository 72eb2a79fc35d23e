/**
 * The gateway's clients as one `ClientHostHooks` for requests a mounted
 * server makes outside any call (a `roots/list` at start-up, an elicitation
 * from a background job). Each request goes to the most recently active live
 * session whose client declared the capability (and, for elicitation, the
 * mode); with none, it fails with a fault saying so. Requests made during a
 * call never come here: they go to that call's own client (`RunOptions.relayTo`).
 *
 * A relay exists before the host serves, so the endpoints that mount the
 * servers can be given its hooks first: create one, hand `hooks` to the
 * fleet, then pass the relay to `serveStdio` / `serveHttp`.
 */
import type { ClientHostHooks, JsonObject } from "@indus/contract";
import { protocolFault } from "@indus/contract";
import { ProtocolErrorCode } from "@modelcontextprotocol/server";
import { elicitModeOf, elicitModesOf, relayHooks } from "./relay-hooks";
import type { RelayMethod } from "./relay-hooks";
import { SessionRegistry } from "./session-registry";
import type { GatewaySession } from "./session-registry";

export interface ClientRelay {
  /**
   * Every hook is present (the mounted servers may ask for anything); each
   * is answered by a session whose client can, or fails naming what is missing.
   */
  readonly hooks: ClientHostHooks;
}

const registries = new WeakMap<ClientRelay, SessionRegistry>();

export function createClientRelay(): ClientRelay {
  const registry = new SessionRegistry();
  const relay: ClientRelay = { hooks: ambientHooks(registry) };
  registries.set(relay, registry);
  return relay;
}

/** The sessions behind a relay (the host registers its sessions here). */
export function sessionsOf(relay: ClientRelay): SessionRegistry {
  const registry = registries.get(relay);
  if (registry === undefined) throw new TypeError("not a ClientRelay made by createClientRelay()");
  return registry;
}

function ambientHooks(registry: SessionRegistry): ClientHostHooks {
  /** The hooks of the session that will answer, or a fault when none can. */
  const answering = async (method: RelayMethod, params: JsonObject, accepts: (session: GatewaySession) => boolean) => {
    const session = registry.mostRecent(accepts);
    if (session === undefined) throw noClient(method, params);
    return relayHooks(session.capabilities, session.request, session);
  };
  return {
    elicit: async (server, params, signal) => {
      const mode = elicitModeOf(params);
      const hooks = await answering("elicitation/create", params, (s) => elicitModesOf(s.capabilities).includes(mode));
      return hooks.elicit!(server, params, signal);
    },
    createMessage: async (server, params, signal) => {
      const hooks = await answering("sampling/createMessage", params, (s) => s.capabilities.sampling !== undefined);
      return hooks.createMessage!(server, params, signal);
    },
    listRoots: async (server, signal) => {
      const hooks = await answering("roots/list", {}, (s) => s.capabilities.roots !== undefined);
      return hooks.listRoots!(server, signal);
    },
    elicitModes: ["form", "url"],
  };
}

/**
 * What the mounted server is told: no gateway client can answer, with the
 * code a client without the capability would answer (-32601; `code` is what
 * the SDK reads from a thrown handler error).
 */
function noClient(method: RelayMethod, params: JsonObject) {
  const what = method === "elicitation/create" ? `elicitation (${elicitModeOf(params)} mode)` : method;
  const message = `no connected client of the gateway offers ${what}`;
  const fault = protocolFault("not-connected", message, undefined, { rpcCode: ProtocolErrorCode.MethodNotFound });
  return Object.assign(fault, { code: ProtocolErrorCode.MethodNotFound });
}
