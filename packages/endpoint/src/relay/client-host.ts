/**
 * The host's hooks as the SDK client sees them: the capabilities the client
 * declares (one per hook the endpoint's own host gives, elicitation in the
 * modes it names) and the handlers for the matching server→client requests.
 * Each handler asks the `RelayRouter` which client answers (the calling
 * client in a gateway, else the host). The v2 client answers a 2026-era
 * `input_required` result through these same handlers, so both eras reach
 * the clients one way.
 */
import { EXTENSIONS, type ClientHostHooks, type ElicitationMode, type JsonObject } from "@indus/contract";
import { ProtocolError, type Client, type ClientCapabilities } from "@modelcontextprotocol/client";
import { elicitModes, type RelayRouter } from "./relay-routing";

/**
 * What a client with these hooks declares. Form elicitation asks the SDK to
 * fill in the schema's defaults the user left out of an accepted answer
 * (SEP-1034); roots include `listChanged` so `notifyRootsChanged` may be sent.
 */
export function clientCapabilities(host: ClientHostHooks | undefined): ClientCapabilities {
  if (!host) return {};
  return declared({
    modes: host.elicit ? elicitModes(host) : [],
    sampling: Boolean(host.createMessage),
    roots: Boolean(host.listRoots),
    appViews: host.appViews ?? [],
  });
}

/** What a client answers: the requests it has hooks for, elicitation in these modes, app views of these types. */
interface Answers {
  readonly modes: readonly ElicitationMode[];
  readonly sampling: boolean;
  readonly roots: boolean;
  readonly appViews: readonly string[];
}

/**
 * The capabilities declaring `answers`, built key by key: every 2026 call
 * builds them (they travel per request), and V8 builds an object literal of
 * several conditional spreads on a slow path (19 us against 1.5 us a call
 * with a relaying client's and the host's hooks, in a micro-bench).
 * Extensions: MCP Apps when it shows app views (SEP-2133).
 */
function declared({ modes, sampling, roots, appViews }: Answers): ClientCapabilities {
  const capabilities: ClientCapabilities = {};
  const elicitation: NonNullable<ClientCapabilities["elicitation"]> = {};
  if (modes.includes("form")) elicitation.form = { applyDefaults: true };
  if (modes.includes("url")) elicitation.url = {};
  if (elicitation.form !== undefined || elicitation.url !== undefined) capabilities.elicitation = elicitation;
  if (sampling) capabilities.sampling = {};
  if (roots) capabilities.roots = { listChanged: true };
  if (appViews.length > 0) capabilities.extensions = { [EXTENSIONS.apps]: { mimeTypes: [...appViews] } };
  return capabilities;
}

/** `capabilities` declaring the Tasks extension too (per request: only a call that follows tasks declares it). */
export function withTasks(capabilities: ClientCapabilities): ClientCapabilities {
  // Object.assign: a spread given more keys takes V8's slow path, and this runs on every 2026 call.
  const extensions = Object.assign({}, capabilities.extensions, { [EXTENSIONS.tasks]: {} });
  return Object.assign({}, capabilities, { extensions });
}

/**
 * What one call declares in the 2026 era (capabilities travel per request
 * there): what its client can answer, within what the endpoint's host
 * declared for the connection (only those requests have a handler here). A
 * server asking for more refuses the call itself, with its own -32021 error.
 */
export function callCapabilities(relayTo: ClientHostHooks, ambient: ClientHostHooks | undefined): ClientCapabilities {
  if (!ambient) return {};
  const modes =
    relayTo.elicit && ambient.elicit ? elicitModes(relayTo).filter((m) => elicitModes(ambient).includes(m)) : [];
  return declared({
    modes,
    sampling: Boolean(relayTo.createMessage && ambient.createMessage),
    roots: Boolean(relayTo.listRoots && ambient.listRoots),
    appViews: (relayTo.appViews ?? []).filter((type) => ambient.appViews?.includes(type)),
  });
}

/** A chosen client, or the error the router answers the server with. */
function chosen(choice: ClientHostHooks | ProtocolError): ClientHostHooks {
  if (choice instanceof ProtocolError) throw choice;
  return choice;
}

/**
 * Route the client's server→client requests for `server`, for each capability
 * the host declared. The hook gets the request's signal: it aborts when the
 * server cancels its request (2025 era) or the call behind the round is
 * cancelled (2026-07-28), so the question is withdrawn wherever it was shown.
 */
export function registerHostHandlers(
  client: Client,
  server: string,
  host: ClientHostHooks | undefined,
  router: RelayRouter,
): void {
  const declared = clientCapabilities(host);
  const answering =
    (method: QuestionMethod) =>
    (request: { params?: unknown }, ctx: { mcpReq: { signal: AbortSignal; id: string | number } }) =>
      answerQuestion(router, server, {
        method,
        params: request.params as JsonObject,
        signal: ctx.mcpReq.signal,
        key: questionKey(ctx.mcpReq.id),
        id: ctx.mcpReq.id,
      });
  if (declared.elicitation) client.setRequestHandler("elicitation/create", answering("elicitation/create") as never);
  if (declared.sampling)
    client.setRequestHandler("sampling/createMessage", answering("sampling/createMessage") as never);
  if (declared.roots) client.setRequestHandler("roots/list", answering("roots/list") as never);
}

/** The requests a server asks its client, directly (2025 era) or as input requests (2026-07-28, tasks). */
export type QuestionMethod = "elicitation/create" | "sampling/createMessage" | "roots/list";

/** A question a server asks; `key` is the server's name for it, when it gave one. */
export interface ServerQuestion {
  readonly method: QuestionMethod;
  readonly params: JsonObject;
  readonly signal: AbortSignal;
  readonly key: string | undefined;
  /** The id of the server's request, when the question came as one (see `RelayRouter.choose`). */
  readonly id?: string | number;
}

/**
 * One question of `server`, answered by the client the router chooses (the
 * call's relayTo, or the host): its answer as the wire has it.
 */
export function answerQuestion(router: RelayRouter, server: string, question: ServerQuestion): Promise<JsonObject> {
  return router.waits.during(() => askClient(router, server, question));
}

async function askClient(
  router: RelayRouter,
  server: string,
  { method, params, signal, key, id }: ServerQuestion,
): Promise<JsonObject> {
  switch (method) {
    case "elicitation/create": {
      const mode = params["mode"] === "url" ? "url" : "form";
      const hooks = chosen(router.choose({ kind: "elicit", mode }, id));
      const answer = await hooks.elicit!(server, params, signal, key);
      if (answer.action !== "accept") return { action: answer.action };
      return answer.content === undefined ? { action: "accept" } : { action: "accept", content: answer.content };
    }
    case "sampling/createMessage":
      return chosen(router.choose({ kind: "createMessage" }, id)).createMessage!(server, params, signal, key);
    case "roots/list": {
      const hooks = chosen(router.choose({ kind: "listRoots" }, id));
      return { roots: [...(await hooks.listRoots!(server, signal, key))] };
    }
  }
}

/**
 * The server's name for a question: the SDK hands an `input_required`
 * request to these handlers with its `inputRequests` key as the id (a
 * string); a 2025-era request's JSON-RPC id names nothing the server chose
 * for the question, and a numeric one is left out.
 */
function questionKey(id: string | number): string | undefined {
  return typeof id === "string" ? id : undefined;
}
