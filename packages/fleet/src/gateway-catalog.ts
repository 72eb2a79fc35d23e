/**
 * Resources, resource templates and prompts of every ready server, as one
 * `GatewayCatalog` a provider host can republish.
 *
 * Namespacing:
 * - Prompts are published as `<server>__<prompt>`.
 * - Resources keep their own URI when no other ready server lists the same
 *   one (the common case, and the readable one: `file:///notes.md` stays
 *   `file:///notes.md`). A URI listed by several servers is published once
 *   per server as `indus://<server>/<original uri>`. Templates follow the same
 *   rule on their `uriTemplate` string.
 * - `readResource(uri)` routes by: the `indus://<server>/` prefix; else the
 *   server that listed the URI; else the server whose template the URI
 *   expands (first in config order); else, after one fresh listing, the same
 *   again; else it rejects with a `protocol` fault. Contents whose `uri` is
 *   the original come back under the URI the caller asked for.
 */
import {
  QUALIFIER,
  protocolFault,
  type GatewayCallOptions,
  type GatewayCatalog,
  type GatewayChange,
  type JsonObject,
  type McpEndpoint,
} from "@indus/contract";
import { uriTemplateMatches } from "./default-endpoint";
import type { EndpointFleet } from "./server-fleet";

/** The scheme of rewritten (colliding) resource URIs. */
export const GATEWAY_URI_PREFIX = "indus://";

export function gatewayUri(server: string, original: string): string {
  return `${GATEWAY_URI_PREFIX}${server}/${original}`;
}

/** `{server, original}` for an `indus://<server>/<original>` URI. */
export function parseGatewayUri(uri: string): { server: string; original: string } | undefined {
  if (!uri.startsWith(GATEWAY_URI_PREFIX)) return undefined;
  const rest = uri.slice(GATEWAY_URI_PREFIX.length);
  const slash = rest.indexOf("/");
  if (slash <= 0) return undefined;
  return { server: rest.slice(0, slash), original: rest.slice(slash + 1) };
}

interface Owned {
  readonly server: string;
  readonly item: JsonObject;
}

/** Publish each item under its key when unique across servers, else under `indus://<server>/<key>`. */
function namespace(owned: readonly Owned[], key: "uri" | "uriTemplate"): JsonObject[] {
  const holders = new Map<string, Set<string>>();
  for (const { server, item } of owned) {
    const value = item[key] as string;
    const set = holders.get(value) ?? new Set<string>();
    set.add(server);
    holders.set(value, set);
  }
  return owned.map(({ server, item }) => {
    const value = item[key] as string;
    return (holders.get(value)?.size ?? 0) > 1 ? { ...item, [key]: gatewayUri(server, value) } : item;
  });
}

export class FleetCatalog implements GatewayCatalog {
  /** Published URI → owning server and original URI, from the last resource listing. */
  private uriOwners = new Map<string, { server: string; original: string }>();
  /** Templates in config order, from the last template listing. */
  private templates: { server: string; template: string }[] = [];
  private promptOwners = new Map<string, { server: string; name: string }>();

  constructor(private readonly fleet: EndpointFleet) {}

  private ready(): McpEndpoint[] {
    return this.fleet.endpoints().filter((endpoint) => endpoint.phase === "ready");
  }

  /** Each ready server's items; a server whose listing fails is skipped. */
  private async gather(list: (endpoint: McpEndpoint) => Promise<readonly JsonObject[]>): Promise<Owned[]> {
    const lists = await Promise.all(
      this.ready().map(async (endpoint) => {
        try {
          return (await list(endpoint)).map((item) => ({ server: endpoint.config.id, item }));
        } catch {
          return [];
        }
      }),
    );
    return lists.flat();
  }

  async listResources(options: GatewayCallOptions = {}): Promise<readonly JsonObject[]> {
    const owned = await this.gather((endpoint) => endpoint.listResources(options));
    const published = namespace(owned, "uri");
    const owners = new Map<string, { server: string; original: string }>();
    published.forEach((item, index) => {
      const source = owned[index]!;
      owners.set(item["uri"] as string, { server: source.server, original: source.item["uri"] as string });
    });
    this.uriOwners = owners;
    return published;
  }

  async listResourceTemplates(options: GatewayCallOptions = {}): Promise<readonly JsonObject[]> {
    const owned = await this.gather((endpoint) => endpoint.listResourceTemplates(options));
    this.templates = owned.map(({ server, item }) => ({ server, template: item["uriTemplate"] as string }));
    return namespace(owned, "uriTemplate");
  }

  private route(uri: string): { server: string; original: string } | undefined {
    const prefixed = parseGatewayUri(uri);
    if (prefixed && this.fleet.endpoint(prefixed.server)) return prefixed;
    const owner = this.uriOwners.get(uri);
    if (owner) return owner;
    const template = this.templates.find(({ template }) => uriTemplateMatches(template, uri));
    return template ? { server: template.server, original: uri } : undefined;
  }

  async readResource(uri: string, options: GatewayCallOptions = {}): Promise<JsonObject> {
    let target = this.route(uri);
    if (!target) {
      // Our maps may be stale (or never built): list once and look again.
      await Promise.all([this.listResources(options), this.listResourceTemplates(options)]);
      target = this.route(uri);
    }
    const endpoint = target ? this.fleet.endpoint(target.server) : undefined;
    if (!target || !endpoint) throw protocolFault("protocol", `no ready server offers resource ${uri}`);
    const result = await endpoint.readResource(target.original, options);
    if (target.original === uri || !Array.isArray(result["contents"])) return result;
    const contents = result["contents"].map((content) =>
      typeof content === "object" && content !== null && !Array.isArray(content) && content["uri"] === target.original
        ? { ...content, uri }
        : content,
    );
    return { ...result, contents };
  }

  async listPrompts(options: GatewayCallOptions = {}): Promise<readonly JsonObject[]> {
    const owned = await this.gather((endpoint) => endpoint.listPrompts(options));
    const owners = new Map<string, { server: string; name: string }>();
    const published = owned.map(({ server, item }) => {
      const name = `${server}${QUALIFIER}${item["name"] as string}`;
      owners.set(name, { server, name: item["name"] as string });
      return { ...item, name };
    });
    this.promptOwners = owners;
    return published;
  }

  async getPrompt(
    name: string,
    args: Readonly<Record<string, string>>,
    options: GatewayCallOptions = {},
  ): Promise<JsonObject> {
    let target = this.promptOwners.get(name);
    if (!target) {
      // Not listed yet: split on the longest ready server id followed by `__`.
      const server = this.ready()
        .map((endpoint) => endpoint.config.id)
        .filter((id) => name.startsWith(`${id}${QUALIFIER}`))
        .sort((a, b) => b.length - a.length)[0];
      if (server) target = { server, name: name.slice(server.length + QUALIFIER.length) };
    }
    const endpoint = target ? this.fleet.endpoint(target.server) : undefined;
    if (!target || !endpoint) throw protocolFault("protocol", `no ready server offers prompt ${name}`);
    return endpoint.getPrompt(target.name, args, options);
  }

  /** Resource or prompt lists changed on some server, or the fleet was restarted. */
  onChanged(listener: (change: GatewayChange) => void): () => void {
    let offs: (() => void)[] = [];
    const subscribe = () => {
      for (const off of offs) off();
      offs = this.fleet.endpoints().map((endpoint) => endpoint.onCatalogChanged((change) => listener(change)));
    };
    subscribe();
    const offReplaced = this.fleet.onEndpointsReplaced(() => {
      subscribe();
      listener("resources");
      listener("prompts");
    });
    return () => {
      offReplaced();
      for (const off of offs) off();
    };
  }
}
