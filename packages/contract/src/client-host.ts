/**
 * What a server may ask of the client in the middle of its work: a question
 * for the user (elicitation), a model completion (sampling), the workspace
 * roots. In the 2025 era these arrive as server→client requests; in the
 * 2026-07-28 era as `input_required` results the client answers and retries.
 * Both go through this one port, so a host answers them the same way in
 * either era. A hook left out is a capability the client does not offer.
 */
import type { JsonObject } from "./json";

/** The user's answer to an elicitation. */
export type ElicitationAnswer =
  | { readonly action: "accept"; readonly content: JsonObject }
  | { readonly action: "decline" }
  | { readonly action: "cancel" };

/**
 * Every hook may get a `signal`: it aborts when the question is withdrawn
 * (the server cancelled its own request, or the call that caused it was
 * cancelled). A host then stops asking, tells whoever it asked, and settles
 * promptly (rejecting is fine: nobody waits for the answer any more). And a
 * `key`: the server's own name for the question when it gave one (its
 * `inputRequests` key in the 2026-07-28 era), which a gateway asking its own
 * client in rounds keeps.
 */
export interface ClientHostHooks {
  /** `elicitation/create`: `params` as the server sent them (message, requestedSchema, mode, ...). */
  readonly elicit?: (
    server: string,
    params: JsonObject,
    signal?: AbortSignal,
    key?: string,
  ) => Promise<ElicitationAnswer>;
  /** `sampling/createMessage`: the `CreateMessageResult` (role, content, model). */
  readonly createMessage?: (
    server: string,
    params: JsonObject,
    signal?: AbortSignal,
    key?: string,
  ) => Promise<JsonObject>;
  /** `roots/list`: the roots the server may work in. */
  readonly listRoots?: (
    server: string,
    signal?: AbortSignal,
    key?: string,
  ) => Promise<readonly { readonly uri: string; readonly name?: string }[]>;
  /**
   * MCP Apps: the MIME types of the `ui://` views the host can show (declared
   * as the `io.modelcontextprotocol/ui` extension); absent, it shows none.
   */
  readonly appViews?: readonly string[];
  /** Elicitation modes the host can answer (default `["form"]`); `url` asks the user to visit a link. */
  readonly elicitModes?: readonly ElicitationMode[];
  /**
   * Who these hooks answer for, when several hook objects stand for one
   * client (a gateway builds hooks per call): hooks with the same `client`
   * are one client when choosing who answers a request. Default: the hooks
   * object itself.
   */
  readonly client?: object;
}

export type ElicitationMode = "form" | "url";

/** A host that offers elicitation and declines every question (until a real one is wired in). */
export const decliningClientHost: ClientHostHooks = {
  elicit: () => Promise.resolve({ action: "decline" }),
};
