/**
 * Resources, resource templates and prompts of every ready server, as one
 * `GatewayCatalog` a provider host can republish, with the rest of MCP's
 * client-facing surface relayed to the servers behind it: completions,
 * resource subscriptions and updates, log levels and messages, roots changes.
 *
 * Names (see `catalog-naming.ts`): prefixed by default (prompts
 * `<server>__<prompt>`, shared URIs `indus://<server>/<uri>`), or as-is.
 *
 * `readResource(uri)` routes by: the `indus://<server>/` prefix; else the
 * server that listed the URI; else the server whose template the URI expands
 * (first in config order); else, after one fresh listing, the same again;
 * else, when exactly one ready server offers resources, that server (the URI
 * unchanged: it answers as it would directly); else it rejects with a
 * `protocol` fault. Prompts likewise, falling back only under as-is names. Contents whose `uri` is the
 * original come back under the URI the caller asked for. `complete` routes
 * its `ref` the same way (a prompt's published name, a template's published
 * form) and sends the server its own name for it.
 */
import {
  QUALIFIER,
  isRecord,
  protocolFault,
  type GatewayCallOptions,
  type GatewayCatalog,
  type GatewayChange,
  type JsonObject,
  type LogLevel,
  type McpEndpoint,
  type ProtocolFault,
  type ServerLogEntry,
  type SkillEntry,
  type TaskMethod,
  type ToolRunner,
} from "@indus/contract";
import { publishPrompts, publishUris, parseGatewayUri, type Owner, type Publication } from "./catalog-naming";
import { ClashLog } from "./clash-log";
import { uriTemplateMatches } from "./default-endpoint";
import { followEndpoints, readyEndpoints } from "./follow-endpoints";
import { LogLevelRelay } from "./log-level-relay";
import type { ClashKind, NamingMode, Offered } from "./names";
import { runOn } from "./remote-run";
import { ResourceSubscriptions } from "./resource-subscriptions";
import { unscopeUri } from "./scoped-uris";
import { SkillRelay } from "./skill-relay";
import type { EndpointFleet } from "./server-fleet";

export { GATEWAY_URI_PREFIX, gatewayUri, parseGatewayUri } from "./catalog-naming";

/** What a lookup that found no owner may fall back on: the sole server offering `capability`. */
interface Unlisted {
  readonly capability: "resources" | "prompts" | "tools";
  /** The name as the caller gave it. */
  readonly name: string;
  /** True when published names differ from the servers' own (no fallback then). */
  readonly rename: boolean;
}

export interface CatalogOptions {
  /** `prefixed` (default) or `as-is`; see `NamingMode`. */
  readonly names?: NamingMode;
}

export class FleetCatalog implements GatewayCatalog {
  readonly names: NamingMode;
  /** Published resource URI → owner, from the last resource listing. */
  private uriOwners = new Map<string, Owner>();
  /** Published template → owner, and the templates in config order, from the last template listing. */
  private templateOwners = new Map<string, Owner>();
  private templates: Owner[] = [];
  private promptOwners = new Map<string, Owner>();
  private readonly clashLog = new ClashLog();
  private readonly subscriptions: ResourceSubscriptions;
  private readonly logLevel: LogLevelRelay;
  private readonly skills: SkillRelay;

  constructor(
    private readonly fleet: EndpointFleet,
    options: CatalogOptions = {},
  ) {
    this.names = options.names ?? "prefixed";
    this.subscriptions = new ResourceSubscriptions(fleet);
    this.logLevel = new LogLevelRelay(fleet);
    this.skills = new SkillRelay(fleet, this.names);
  }

  /** Each ready server's items; a server whose listing fails is skipped. */
  private async gather(
    list: (endpoint: McpEndpoint) => Promise<readonly JsonObject[]>,
  ): Promise<Offered<JsonObject>[]> {
    const lists = await Promise.all(
      readyEndpoints(this.fleet).map(async (endpoint) => {
        try {
          return (await list(endpoint)).map((item) => ({ server: endpoint.config.id, item }));
        } catch {
          return [];
        }
      }),
    );
    return lists.flat();
  }

  /** As-is naming: the clashes the last listings found (prompts, resources, templates), as faults. */
  nameClashes(): readonly ProtocolFault[] {
    return this.clashLog.faults();
  }

  /** Hear of each new clash once a listing finds it; returns an unsubscribe. */
  onNameClash(listener: (fault: ProtocolFault) => void): () => void {
    return this.clashLog.onClash(listener);
  }

  private record(kind: ClashKind, publication: Publication): Publication {
    this.clashLog.update(kind, publication.clashes);
    return publication;
  }

  async listResources(options: GatewayCallOptions = {}): Promise<readonly JsonObject[]> {
    const offers = await this.gather((endpoint) => endpoint.listResources(options));
    const published = this.record("resource", publishUris(offers, "uri", this.names));
    this.uriOwners = published.owners;
    return published.items;
  }

  async listResourceTemplates(options: GatewayCallOptions = {}): Promise<readonly JsonObject[]> {
    const offers = await this.gather((endpoint) => endpoint.listResourceTemplates(options));
    const published = this.record("resource-template", publishUris(offers, "uriTemplate", this.names));
    this.templateOwners = published.owners;
    this.templates = offers.map(({ server, item }) => ({ server, original: item["uriTemplate"] as string }));
    return published.items;
  }

  async listPrompts(options: GatewayCallOptions = {}): Promise<readonly JsonObject[]> {
    const offers = await this.gather((endpoint) => endpoint.listPrompts(options));
    const published = this.record("prompt", publishPrompts(offers, this.names));
    this.promptOwners = published.owners;
    return published.items;
  }

  /** Every mounted server's skills under this catalog's names (see `skill-relay.ts`). */
  async listSkills(options: GatewayCallOptions = {}): Promise<readonly SkillEntry[]> {
    const { skills, clashes } = await this.skills.list(options);
    this.clashLog.update("skill", clashes);
    return skills;
  }

  getSkill(uri: string, options: GatewayCallOptions = {}): Promise<SkillEntry> {
    return this.skills.get(uri, options);
  }

  /** `tasks/*` for a task `server` created (see `GatewayCatalog.taskRequest`): that server's own answer. */
  taskRequest(
    server: string,
    method: TaskMethod,
    params: JsonObject,
    options: GatewayCallOptions = {},
  ): Promise<JsonObject> {
    const endpoint = this.fleet.endpoint(server);
    if (endpoint?.taskRequest === undefined) {
      return Promise.reject(protocolFault("not-connected", `server "${server}" is not mounted here: it has no tasks`));
    }
    return endpoint.taskRequest(method, params, options);
  }

  /**
   * A concrete resource URI's owner: its server prefix (`indus://`, or a
   * scoped `skill://`/`ui://` URI), listed URI, skill file, or the first
   * template it expands.
   */
  private route(uri: string): Owner | undefined {
    const prefixed = parseGatewayUri(uri) ?? unscopeUri(uri);
    if (this.names === "prefixed" && prefixed && this.fleet.endpoint(prefixed.server)) return prefixed;
    const owner = this.uriOwners.get(uri) ?? this.skills.owner(uri);
    if (owner) return owner;
    const template = this.templates.find(({ original }) => uriTemplateMatches(original, uri));
    return template ? { server: template.server, original: uri } : undefined;
  }

  /** Look up, and when that misses, list once (our maps may be stale or never built) and look again. */
  private async owned(
    find: () => Owner | undefined,
    relist: () => Promise<unknown>,
    what: string,
    unlisted: Unlisted,
  ): Promise<{ owner: Owner; endpoint: McpEndpoint }> {
    let owner = find();
    if (!owner) {
      await relist();
      owner = find() ?? this.soleOffer(unlisted);
    }
    const endpoint = owner ? this.fleet.endpoint(owner.server) : undefined;
    if (!owner || !endpoint) throw protocolFault("protocol", `no ready server offers ${what}`);
    return { owner, endpoint };
  }

  /**
   * A name no listing knows goes, unchanged, to the one ready server that
   * offers that kind of item, if there is exactly one: it answers as it would
   * directly (some servers serve URIs they never list; an unknown name gets
   * the server's own error). With several candidates there is no owner.
   */
  private soleOffer(unlisted: Unlisted): Owner | undefined {
    if (unlisted.rename) return undefined;
    const offering = readyEndpoints(this.fleet).filter(
      (endpoint) => endpoint.serverCapabilities?.[unlisted.capability] !== undefined,
    );
    return offering.length === 1 ? { server: offering[0]!.config.id, original: unlisted.name } : undefined;
  }

  /**
   * Under as-is names, a tool name the box does not list goes unchanged to
   * the one ready server offering tools, if there is exactly one: a gateway
   * standing in for that server gives the caller the server's own answer
   * (its "unknown tool" result or error) rather than one of its own.
   */
  unlistedTool(name: string): ToolRunner | undefined {
    const owner = this.soleOffer({ capability: "tools", name, rename: this.names !== "as-is" });
    const endpoint = owner ? this.fleet.endpoint(owner.server) : undefined;
    if (!endpoint) return undefined;
    return { run: (call, options = {}) => runOn(endpoint, name, call, options) };
  }

  private resourceOwner(uri: string, options: GatewayCallOptions) {
    return this.owned(
      () => this.route(uri),
      () => Promise.all([this.listResources(options), this.listResourceTemplates(options)]),
      `resource ${uri}`,
      { capability: "resources", name: uri, rename: false },
    );
  }

  async readResource(uri: string, options: GatewayCallOptions = {}): Promise<JsonObject> {
    const { owner, endpoint } = await this.resourceOwner(uri, options);
    const result = await endpoint.readResource(owner.original, options);
    if (owner.original === uri || !Array.isArray(result["contents"])) return result;
    const contents = result["contents"].map((content) =>
      isRecord(content) && content["uri"] === owner.original ? { ...content, uri } : content,
    );
    return { ...result, contents };
  }

  /** A prompt's owner: from the last listing, else (prefixed) the longest ready server id before `__`. */
  private promptRoute(name: string): Owner | undefined {
    const listed = this.promptOwners.get(name);
    if (listed || this.names === "as-is") return listed;
    const server = readyEndpoints(this.fleet)
      .map((endpoint) => endpoint.config.id)
      .filter((id) => name.startsWith(`${id}${QUALIFIER}`))
      .sort((a, b) => b.length - a.length)[0];
    return server ? { server, original: name.slice(server.length + QUALIFIER.length) } : undefined;
  }

  private promptOwner(name: string, options: GatewayCallOptions) {
    return this.owned(
      () => this.promptRoute(name),
      () => this.listPrompts(options),
      `prompt ${name}`,
      // Prefixed names are not the server's own: an unknown one cannot be passed on as it is.
      { capability: "prompts", name, rename: this.names === "prefixed" },
    );
  }

  async getPrompt(
    name: string,
    args: Readonly<Record<string, string>>,
    options: GatewayCallOptions = {},
  ): Promise<JsonObject> {
    const { owner, endpoint } = await this.promptOwner(name, options);
    return endpoint.getPrompt(owner.original, args, options);
  }

  /** `completion/complete`: the `ref` routed to its server and rewritten to the server's own name. */
  async complete(params: JsonObject, options: GatewayCallOptions = {}): Promise<JsonObject> {
    const ref = params["ref"];
    if (typeof ref !== "object" || ref === null || Array.isArray(ref)) {
      throw protocolFault("protocol", "completion/complete needs a ref");
    }
    const { field, target } = await this.completionTarget(ref, options);
    if (!target.endpoint.complete) {
      throw protocolFault("protocol", `server "${target.owner.server}" does not offer completions`, undefined, {
        server: target.owner.server,
      });
    }
    return target.endpoint.complete({ ...params, ref: { ...ref, [field]: target.owner.original } }, options);
  }

  private async completionTarget(ref: JsonObject, options: GatewayCallOptions) {
    if (ref["type"] === "ref/prompt" && typeof ref["name"] === "string") {
      return { field: "name", target: await this.promptOwner(ref["name"], options) };
    }
    if (ref["type"] === "ref/resource" && typeof ref["uri"] === "string") {
      const uri = ref["uri"];
      const target = await this.owned(
        () => this.templateOwners.get(uri) ?? this.route(uri),
        () => Promise.all([this.listResourceTemplates(options), this.listResources(options)]),
        `resource template ${uri}`,
        { capability: "resources", name: uri, rename: false },
      );
      return { field: "uri", target };
    }
    throw protocolFault("protocol", `completion/complete: unknown ref type ${JSON.stringify(ref["type"])}`);
  }

  async subscribe(uri: string, options: GatewayCallOptions = {}): Promise<void> {
    const { owner } = await this.resourceOwner(uri, options);
    await this.subscriptions.subscribe(uri, owner, options);
  }

  unsubscribe(uri: string, options: GatewayCallOptions = {}): Promise<void> {
    return this.subscriptions.unsubscribe(uri, options);
  }

  /** A server's `notifications/resources/updated`, under the URI this catalog published. */
  onResourceUpdated(listener: (uri: string) => void): () => void {
    return followEndpoints(this.fleet, (endpoint) =>
      endpoint.onResourceUpdated?.((original) => listener(this.publishedUri(endpoint.config.id, original))),
    );
  }

  private publishedUri(server: string, original: string): string {
    const subscribed = this.subscriptions.publishedFor(server, original);
    if (subscribed !== undefined) return subscribed;
    for (const [published, owner] of this.uriOwners) {
      if (owner.server === server && owner.original === original) return published;
    }
    return original;
  }

  setLogLevel(level: LogLevel, options: GatewayCallOptions = {}): Promise<void> {
    return this.logLevel.set(level, options);
  }

  onLog(listener: (entry: ServerLogEntry) => void): () => void {
    return followEndpoints(this.fleet, (endpoint) =>
      endpoint.onLog?.((params) => listener({ server: endpoint.config.id, params })),
    );
  }

  /** Every ready server that can hear it; one that fails is skipped. */
  async notifyRootsChanged(): Promise<void> {
    await Promise.all(
      readyEndpoints(this.fleet).map((endpoint) =>
        endpoint.notifyRootsChanged ? endpoint.notifyRootsChanged().catch(() => undefined) : Promise.resolve(),
      ),
    );
  }

  /** Resource or prompt lists changed on some server, a server joined while the fleet started, or it was restarted. */
  onChanged(listener: (change: GatewayChange) => void): () => void {
    const both = () => {
      listener("resources");
      listener("prompts");
    };
    const offFollow = followEndpoints(
      this.fleet,
      (endpoint) => endpoint.onCatalogChanged((change) => listener(change)),
      both,
    );
    const offJoined = this.fleet.onEndpointSettled((endpoint) => {
      if (endpoint.phase !== "ready") return;
      if (endpoint.serverCapabilities?.resources !== undefined) listener("resources");
      if (endpoint.serverCapabilities?.prompts !== undefined) listener("prompts");
    });
    return () => {
      offFollow();
      offJoined();
    };
  }
}
