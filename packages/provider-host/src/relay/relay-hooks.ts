/**
 * A gateway client as `ClientHostHooks`: the port through which the servers
 * mounted behind the box ask for elicitation, sampling and roots. Only the
 * hooks the client declared exist (a hook left out is a capability it lacks,
 * so the mounted server gets the same refusal the client would give), and
 * the elicitation modes follow its `elicitation` capability. How a request
 * reaches the client is the caller's: a related request on the call's own
 * stream (2025 era), an `input_required` round (2026-07-28), or a request on a
 * session outside any call.
 */
import type { ClientHostHooks, ElicitationAnswer, ElicitationMode, JsonObject, JsonValue } from "@indus/contract";
import { EXTENSIONS, isRecord, protocolFault } from "@indus/contract";
import { ProtocolError, SdkError, SdkErrorCode } from "@modelcontextprotocol/server";
import type { ClientCapabilities } from "@modelcontextprotocol/server";

/** The server→client requests a gateway relays. */
export type RelayMethod = "elicitation/create" | "sampling/createMessage" | "roots/list";

/**
 * Sends one request to the client and resolves with its result as sent;
 * `signal` aborting withdraws it (the client is told, where it can be).
 */
export type RelaySend = (
  method: RelayMethod,
  params: JsonObject,
  signal?: AbortSignal,
  key?: string,
) => Promise<JsonObject>;

type Root = { readonly uri: string; readonly name?: string };

/** What a client that declared none of elicitation, sampling and roots can answer: nothing (one object for all). */
const NO_HOOKS: ClientHostHooks = Object.freeze({});

/**
 * The hooks a client with `capabilities` can answer, each sent through
 * `send`; `client` marks hooks built per call for one session as one client;
 * `left` aborts when the client leaves the call the questions ride on (it
 * cancelled the call or hung up), so their failure says so.
 */
export function relayHooks(
  capabilities: ClientCapabilities | undefined,
  send: RelaySend,
  client?: object,
  left?: AbortSignal,
): ClientHostHooks {
  const appViews = appViewsOf(capabilities);
  if (!answersAnything(capabilities) && appViews.length === 0) return NO_HOOKS;
  const modes = elicitModesOf(capabilities);
  const relay = (method: RelayMethod, params: JsonObject, signal: AbortSignal | undefined, key: string | undefined) =>
    send(method, params, signal, key).catch(rethrowAsFault(method, { withdrawn: signal, left }));
  return {
    ...(client !== undefined && { client }),
    ...(appViews.length > 0 && { appViews }),
    ...(modes.length > 0 && {
      elicit: async (_server: string, params: JsonObject, signal?: AbortSignal, key?: string) =>
        (await relay("elicitation/create", params, signal, key)) as unknown as ElicitationAnswer,
      elicitModes: modes,
    }),
    ...(capabilities?.sampling !== undefined && {
      createMessage: (_server: string, params: JsonObject, signal?: AbortSignal, key?: string) =>
        relay("sampling/createMessage", params, signal, key),
    }),
    ...(capabilities?.roots !== undefined && {
      listRoots: async (_server: string, signal?: AbortSignal, key?: string) => {
        const result = await relay("roots/list", {}, signal, key);
        return Array.isArray(result.roots) ? (result.roots as unknown as readonly Root[]) : [];
      },
    }),
  };
}

/** At most this many app view types are taken from a client's declaration (it is the client's say, and untrusted). */
const MAX_APP_VIEW_TYPES = 8;

/** The MCP Apps view types a client declared (`extensions["io.modelcontextprotocol/ui"].mimeTypes`), bounded. */
function appViewsOf(capabilities: ClientCapabilities | undefined): string[] {
  const apps = (capabilities?.extensions as Record<string, unknown> | undefined)?.[EXTENSIONS.apps];
  const types = isRecord(apps) ? apps["mimeTypes"] : undefined;
  if (!Array.isArray(types)) return [];
  return types
    .filter((type): type is string => typeof type === "string" && type.length <= 200)
    .slice(0, MAX_APP_VIEW_TYPES);
}

function answersAnything(capabilities: ClientCapabilities | undefined): boolean {
  return (
    capabilities !== undefined &&
    (capabilities.elicitation !== undefined || capabilities.sampling !== undefined || capabilities.roots !== undefined)
  );
}

/**
 * The modes an `elicitation` capability admits. An empty object is form
 * mode (the 2025-06-18 shape, before modes existed).
 */
export function elicitModesOf(capabilities: ClientCapabilities | undefined): ElicitationMode[] {
  const elicitation = capabilities?.elicitation as { form?: unknown; url?: unknown } | undefined;
  if (elicitation === undefined) return [];
  const modes: ElicitationMode[] = [];
  if (elicitation.form !== undefined || elicitation.url === undefined) modes.push("form");
  if (elicitation.url !== undefined) modes.push("url");
  return modes;
}

/** The mode an `elicitation/create` asks for (form when unnamed). */
export function elicitModeOf(params: JsonObject): ElicitationMode {
  return params.mode === "url" ? "url" : "form";
}

/**
 * A fault carrying a JSON-RPC error for the asking server: `rpcCode` and
 * `data` (the contract's fields), and `code` too, which the SDK reads when a
 * request handler throws, so the server gets the very error the client sent.
 */
export function withRpcCode(message: string, code: number, data: unknown, cause?: unknown): Error {
  const details = data === undefined ? { rpcCode: code } : { rpcCode: code, data: data as JsonValue };
  return Object.assign(protocolFault("protocol", message, cause, details), { code });
}

/** Why a relayed request may end unanswered: the asking server withdrew it, or the client left its call. */
interface Endings {
  readonly withdrawn: AbortSignal | undefined;
  readonly left: AbortSignal | undefined;
}

/**
 * The client's answer as a fault: a JSON-RPC error keeps its code and `data`
 * (see `withRpcCode`); a request withdrawn by the asking server fails with its
 * reason; one whose client left is `not-connected` (the SDK reports any
 * abort as a timeout, which would blame a client that is gone for slowness).
 */
function rethrowAsFault(method: RelayMethod, { withdrawn, left }: Endings): (error: unknown) => never {
  return (error) => {
    if (withdrawn?.aborted === true)
      throw protocolFault("protocol", `${method} was withdrawn before the client answered`, withdrawn.reason);
    // The reason is the client's own words when it cancelled: not passed on.
    if (left?.aborted === true)
      throw protocolFault(
        "not-connected",
        `the client left before answering ${method} (it hung up or cancelled its call)`,
        error,
      );
    const message = error instanceof Error ? error.message : String(error);
    const what = `the client answered ${method} with an error: ${message}`;
    if (error instanceof ProtocolError) throw withRpcCode(what, error.code, error.data, error);
    if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
      throw protocolFault("timeout", `the client did not answer ${method} in time`, error);
    }
    throw protocolFault("not-connected", `${method} could not reach the client: ${message}`, error);
  };
}
