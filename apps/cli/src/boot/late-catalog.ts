/**
 * The gateway's catalog before its deck has booted: `mcp serve --stdio`
 * answers a client's handshake before the deck and the mounts load, so the
 * capabilities it declares cannot wait for the real catalog. This one has
 * every member a mounted fleet's catalog has, forwards to the catalog bound
 * once booted (or to an empty one when nothing is mounted), and holds the
 * listeners the host registers before then. Listings and calls never reach it
 * before the bind: the host holds them until the box is ready.
 */
import {
  protocolFault,
  type GatewayCallOptions,
  type GatewayCatalog,
  type GatewayChange,
  type JsonObject,
  type LogLevel,
  type ServerLogEntry,
  type SkillEntry,
  type TaskMethod,
  type ToolRunner,
} from "@indus/contract";

/** Listeners registered before the bind, and after it, fed from the bound catalog. */
class Fanout<T> {
  private readonly listeners = new Set<(value: T) => void>();
  add(listener: (value: T) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  readonly emit = (value: T): void => {
    for (const listener of this.listeners) listener(value);
  };
}

function nothingMounted(what: string): Promise<never> {
  return Promise.reject(protocolFault("protocol", `${what}: no MCP server is mounted in this gateway`));
}

/** What a gateway without mounted servers republishes: nothing, and no item by any name. */
const EMPTY_CATALOG: GatewayCatalog = {
  listResources: () => Promise.resolve([]),
  listResourceTemplates: () => Promise.resolve([]),
  readResource: (uri) => nothingMounted(`unknown resource ${uri}`),
  listPrompts: () => Promise.resolve([]),
  getPrompt: (name) => nothingMounted(`unknown prompt ${name}`),
  complete: () => nothingMounted("completion/complete"),
  subscribe: (uri) => nothingMounted(`unknown resource ${uri}`),
  unsubscribe: () => Promise.resolve(),
  setLogLevel: () => Promise.resolve(),
  notifyRootsChanged: () => Promise.resolve(),
  listSkills: () => Promise.resolve([]),
  getSkill: (uri) => nothingMounted(`unknown skill ${uri}`),
  taskRequest: (server) => nothingMounted(`unknown server "${server}"`),
};

type Options = GatewayCallOptions | undefined;

export class LateCatalog implements GatewayCatalog {
  private target: GatewayCatalog | undefined;
  private readonly bound: Promise<GatewayCatalog>;
  private resolveBound: (catalog: GatewayCatalog) => void = () => undefined;
  private readonly changes = new Fanout<GatewayChange>();
  private readonly updates = new Fanout<string>();
  private readonly logs = new Fanout<ServerLogEntry>();

  constructor() {
    this.bound = new Promise((resolve) => (this.resolveBound = resolve));
  }

  /** Forward from now on to `catalog` (none: nothing is mounted). */
  bind(catalog: GatewayCatalog | undefined): void {
    const target = catalog ?? EMPTY_CATALOG;
    this.target = target;
    target.onChanged?.(this.changes.emit);
    target.onResourceUpdated?.(this.updates.emit);
    target.onLog?.(this.logs.emit);
    this.resolveBound(target);
  }

  /** The bound catalog's `member`, else the empty catalog's (a member the bound one lacks). */
  private async member<K extends keyof GatewayCatalog>(key: K): Promise<NonNullable<GatewayCatalog[K]>> {
    const target = await this.bound;
    const own = target[key] ?? EMPTY_CATALOG[key];
    return (own as (...args: unknown[]) => unknown).bind(target) as NonNullable<GatewayCatalog[K]>;
  }

  async listResources(options?: Options): Promise<readonly JsonObject[]> {
    return (await this.member("listResources"))(options);
  }
  async listResourceTemplates(options?: Options): Promise<readonly JsonObject[]> {
    return (await this.member("listResourceTemplates"))(options);
  }
  async readResource(uri: string, options?: Options): Promise<JsonObject> {
    return (await this.member("readResource"))(uri, options);
  }
  async listPrompts(options?: Options): Promise<readonly JsonObject[]> {
    return (await this.member("listPrompts"))(options);
  }
  async getPrompt(name: string, args: Readonly<Record<string, string>>, options?: Options): Promise<JsonObject> {
    return (await this.member("getPrompt"))(name, args, options);
  }
  async complete(params: JsonObject, options?: Options): Promise<JsonObject> {
    return (await this.member("complete"))(params, options);
  }
  async subscribe(uri: string, options?: Options): Promise<void> {
    return (await this.member("subscribe"))(uri, options);
  }
  async unsubscribe(uri: string, options?: Options): Promise<void> {
    return (await this.member("unsubscribe"))(uri, options);
  }
  async setLogLevel(level: LogLevel, options?: Options): Promise<void> {
    return (await this.member("setLogLevel"))(level, options);
  }
  async notifyRootsChanged(): Promise<void> {
    return (await this.member("notifyRootsChanged"))();
  }
  async listSkills(options?: Options): Promise<readonly SkillEntry[]> {
    return (await this.member("listSkills"))(options);
  }
  async getSkill(uri: string, options?: Options): Promise<SkillEntry> {
    return (await this.member("getSkill"))(uri, options);
  }
  async taskRequest(server: string, method: TaskMethod, params: JsonObject, options?: Options): Promise<JsonObject> {
    return (await this.member("taskRequest"))(server, method, params, options);
  }
  onChanged(listener: (change: GatewayChange) => void): () => void {
    return this.changes.add(listener);
  }
  onResourceUpdated(listener: (uri: string) => void): () => void {
    return this.updates.add(listener);
  }
  onLog(listener: (entry: ServerLogEntry) => void): () => void {
    return this.logs.add(listener);
  }
  /** None before the bind: a call by an unlisted name waits for the box like any call. */
  unlistedTool(name: string): ToolRunner | undefined {
    return this.target?.unlistedTool?.(name);
  }
}
