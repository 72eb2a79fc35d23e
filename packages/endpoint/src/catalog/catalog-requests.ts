/**
 * Resources and prompts on the live session, through the session port: the
 * lists (all pages, `[]` without the capability), reads and prompt gets with
 * results untouched, and any other request beside tools for a call's relayTo.
 */
import type { GatewayCallOptions, JsonObject } from "@indus/contract";
import { requestWithDeadline } from "../deadline";
import { allPages } from "../pages";
import { retryOnLegacy, withRound } from "../relay/input-handback";
import type { SessionPort } from "../session-port";
import { AnyResultSchema, keepWithString } from "../wire";

/** One catalog list: its capability, method, result key and the string each entry is known by. */
interface CatalogList {
  readonly what: string;
  readonly capability: "resources" | "prompts";
  readonly method: string;
  readonly key: string;
  readonly identity: string;
}

const RESOURCES: CatalogList = {
  what: "list resources",
  capability: "resources",
  method: "resources/list",
  key: "resources",
  identity: "uri",
};
const RESOURCE_TEMPLATES: CatalogList = {
  what: "list resource templates",
  capability: "resources",
  method: "resources/templates/list",
  key: "resourceTemplates",
  identity: "uriTemplate",
};
const PROMPTS: CatalogList = {
  what: "list prompts",
  capability: "prompts",
  method: "prompts/list",
  key: "prompts",
  identity: "name",
};

export class CatalogRequests {
  constructor(private readonly port: SessionPort) {}

  listResources(signal?: AbortSignal): Promise<JsonObject[]> {
    return this.list(RESOURCES, signal);
  }

  listResourceTemplates(signal?: AbortSignal): Promise<JsonObject[]> {
    return this.list(RESOURCE_TEMPLATES, signal);
  }

  listPrompts(signal?: AbortSignal): Promise<JsonObject[]> {
    return this.list(PROMPTS, signal);
  }

  readResource(uri: string, options: GatewayCallOptions): Promise<JsonObject> {
    return this.request(`read resource ${uri}`, { method: "resources/read", params: { uri } }, options);
  }

  getPrompt(name: string, args: Readonly<Record<string, string>>, options: GatewayCallOptions): Promise<JsonObject> {
    const request = { method: "prompts/get", params: { name, arguments: { ...args } } };
    return this.request(`get prompt ${name}`, request, options);
  }

  /** All pages of one catalog list, keeping the entries that carry their identifying string. */
  private async list(list: CatalogList, signal: AbortSignal | undefined): Promise<JsonObject[]> {
    this.port.readySession(list.what);
    if (this.port.capabilities()?.[list.capability] === undefined) return [];
    const raw = await this.port.onSession(list.what, "list", (session) =>
      allPages(session.client, list.method, list.key, { timeoutMs: this.port.timeouts.listMs, signal }),
    );
    return keepWithString(raw, list.identity);
  }

  /**
   * One request beside tools (read, prompt, completion), for `options.relayTo`
   * like a call: in the 2026 era its input requests go to that client.
   */
  request(
    what: string,
    request: { method: string; params: Record<string, unknown> },
    options: GatewayCallOptions = {},
  ): Promise<JsonObject> {
    const { port } = this;
    return port.during(
      options.relayTo,
      () =>
        port.onSession(what, "list", (session) => {
          const deadline = { timeoutMs: port.timeouts.callMs, signal: options.signal };
          const round = options.inputRound;
          if (session.era !== "2026-07-28") {
            if (round?.kind === "retry") return Promise.reject(retryOnLegacy(port.server));
            return requestWithDeadline<JsonObject>(session.client, request, AnyResultSchema, deadline);
          }
          if (round === undefined) {
            const sent = port.withMeta(request, options.relayTo, options.logs);
            return requestWithDeadline<JsonObject>(session.client, sent, AnyResultSchema, deadline);
          }
          // The caller answers the server's questions itself: an input_required result comes back as sent.
          const sent = port.withMeta(withRound(request, round), options.relayTo, options.logs);
          return requestWithDeadline<JsonObject>(session.client, sent, AnyResultSchema, {
            ...deadline,
            allowInputRequired: true,
          });
        }),
      options.logs,
    );
  }
}
