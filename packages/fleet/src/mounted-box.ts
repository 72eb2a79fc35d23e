/**
 * The fleet's tools as one `ToolBox`. Descriptors are the endpoints'
 * normalized tools (after each server's include/exclude filter), in config
 * order, under their qualified names (or, with `names: "as-is"`, their
 * server-side names), each carrying the tool exactly as its server sent it
 * (`wire`); the runner routes a published name back to its endpoint under the
 * server-side name, for the client the call runs for (`relayTo`). The box follows
 * each server's tool-list changes and tells its own subscribers when the set
 * of descriptors changes.
 */
import {
  type ProtocolFault,
  type McpEndpoint,
  type RawCall,
  type RawForward,
  type RemoteTool,
  type RunOptions,
  type ToolBox,
  type ToolCall,
  type ToolDescriptor,
  type ToolOutcome,
  type ToolRunner,
  sameJson,
  withNameSuffix,
} from "@indus/contract";
import { withPublishedViews } from "./app-views";
import { ClashLog } from "./clash-log";
import { shortHash } from "./default-endpoint";
import { FleetCatalog } from "./gateway-catalog";
import { firstOfferWins, type NamingMode } from "./names";
import type { EndpointFleet } from "./server-fleet";
import { failure, forwardRawOn, runOn } from "./remote-run";
import { toolFilter } from "./tool-filter";

export interface MountedBoxOptions {
  /** `prefixed` (default): `<server>__<tool>`; `as-is`: server-side names, clashes reported. */
  readonly names?: NamingMode;
}

interface Route {
  readonly endpoint: McpEndpoint;
  readonly tool: RemoteTool;
}

export class MountedToolBox implements ToolBox {
  readonly runner: ToolRunner;
  readonly catalog: FleetCatalog;
  private readonly perServer = new Map<string, readonly RemoteTool[]>();
  private routes = new Map<string, Route>();
  /** Routes of servers that left `ready`: a call then gets the server's own not-connected fault, not "unknown tool". */
  private readonly withdrawn = new Map<string, Route>();
  private descriptorList: readonly ToolDescriptor[] = [];
  private readonly listeners = new Set<() => void>();
  /** The endpoint each server's tools were listed from, and the unsubscribe of its change listener. */
  private readonly followed = new Map<string, { readonly endpoint: McpEndpoint; readonly off: () => void }>();
  private refreshing: Promise<void> = Promise.resolve();
  private readonly clashLog = new ClashLog();
  readonly names: NamingMode;

  constructor(
    private readonly fleet: EndpointFleet,
    options: MountedBoxOptions = {},
  ) {
    this.names = options.names ?? "prefixed";
    this.runner = { run: (call, options) => this.run(call, options), forwardRaw: (call) => this.forwardRaw(call) };
    this.catalog = new FleetCatalog(fleet, { names: this.names });
    fleet.onEndpointsReplaced(() => void this.refresh());
    fleet.onEndpointSettled((endpoint) => void this.join(endpoint));
  }

  /**
   * As-is naming: every clash standing now between ready servers (tools, and
   * prompts, resources and templates after a fresh catalog listing), as
   * `protocol` faults naming both servers (`nameClashOf(fault)` reads them).
   * Always empty with prefixed names.
   */
  async nameClashes(): Promise<readonly ProtocolFault[]> {
    if (this.names === "prefixed") return [];
    await this.settled();
    await Promise.all([
      this.catalog.listPrompts().catch(() => undefined),
      this.catalog.listResources().catch(() => undefined),
      this.catalog.listResourceTemplates().catch(() => undefined),
    ]);
    return [...this.clashLog.faults(), ...this.catalog.nameClashes()];
  }

  /** Hear of each new clash once (a list change that brings two servers' names together); returns an unsubscribe. */
  onNameClash(listener: (fault: ProtocolFault) => void): () => void {
    const offs = [this.clashLog.onClash(listener), this.catalog.onNameClash(listener)];
    return () => {
      for (const off of offs) off();
    };
  }

  descriptors(): readonly ToolDescriptor[] {
    return this.descriptorList;
  }

  onDescriptorsChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Where a model-facing name is routed: the server and its server-side name. */
  resolve(name: string): RemoteTool | undefined {
    return this.routes.get(name)?.tool;
  }

  /**
   * Re-read every ready endpoint's tools (cached listings are reused) and
   * follow their changes from now on. Servers not ready, or whose listing
   * fails (or last failed), contribute nothing; one reconnecting under its
   * policy is still followed, and its tools return with it. A server settling while the fleet still
   * starts joins on its own, without a refresh.
   */
  refresh(): Promise<void> {
    // Serialized: a refresh asked for during another runs after it.
    this.refreshing = this.refreshing.then(() => this.relist());
    return this.refreshing;
  }

  /** Resolves once the latest refresh has finished. */
  settled(): Promise<void> {
    return this.refreshing;
  }

  /**
   * One server settled while the fleet was still starting (the others may be
   * connecting for a while yet): its tools join now, not when the last server
   * settles. Serialized with refreshes.
   */
  private join(endpoint: McpEndpoint): Promise<void> {
    this.refreshing = this.refreshing.then(async () => {
      if (this.fleet.endpoint(endpoint.config.id) !== endpoint) return;
      await this.list(endpoint);
      this.rebuild();
    });
    return this.refreshing;
  }

  private async relist(): Promise<void> {
    const endpoints = this.fleet.endpoints();
    const current = new Set(endpoints);
    for (const [server, { endpoint }] of this.followed) if (!current.has(endpoint)) this.drop(server);
    await Promise.all(endpoints.map((endpoint) => this.list(endpoint)));
    this.rebuild();
  }

  /** Read one endpoint's tools (a cached listing is reused) and follow its changes; a server not ready contributes nothing. */
  private async list(endpoint: McpEndpoint): Promise<void> {
    const server = endpoint.config.id;
    if (endpoint.phase !== "ready" || endpoint.listFault) {
      // Reconnecting under its policy (same endpoint): followed still, its tools come back with it.
      if (endpoint.phase === "connecting" && this.followed.get(server)?.endpoint === endpoint) {
        this.perServer.delete(server);
        return;
      }
      // A listing that just failed (timed out) is not run again at once: that would double the wait.
      this.drop(server);
      return;
    }
    const keep = toolFilter(endpoint.config);
    try {
      const tools = await endpoint.listTools();
      this.perServer.set(
        server,
        tools.filter((tool) => keep(tool.ref.name)),
      );
    } catch {
      this.drop(server);
      return;
    }
    if (this.followed.get(server)?.endpoint !== endpoint) this.follow(endpoint);
  }

  /**
   * Follow one endpoint: its list changes, and its phase. A server that dies
   * (or starts reconnecting) has its tools withdrawn at once, and listed
   * again when it is ready again.
   */
  private follow(endpoint: McpEndpoint): void {
    const server = endpoint.config.id;
    const keep = toolFilter(endpoint.config);
    this.followed.get(server)?.off();
    const offTools = endpoint.onToolsChanged((change) => {
      if (this.fleet.endpoint(server) !== endpoint) return;
      this.perServer.set(
        server,
        change.tools.filter((tool) => keep(tool.ref.name)),
      );
      this.rebuild();
    });
    const offPhase = endpoint.onPhaseChanged?.((phase) => {
      if (this.fleet.endpoint(server) !== endpoint) return;
      if (phase === "ready") void this.join(endpoint);
      else this.withdraw(endpoint);
    });
    this.followed.set(server, {
      endpoint,
      off: () => {
        offTools();
        offPhase?.();
      },
    });
  }

  /** The server left `ready`: its tools leave the box, their names still route to it (to say why they fail). */
  private withdraw(endpoint: McpEndpoint): void {
    for (const [name, route] of this.routes) if (route.endpoint === endpoint) this.withdrawn.set(name, route);
    if (this.perServer.delete(endpoint.config.id)) this.rebuild();
  }

  private drop(server: string): void {
    this.followed.get(server)?.off();
    this.followed.delete(server);
    this.perServer.delete(server);
  }

  /** Recompute routes and descriptors; notify subscribers if anything changed. */
  private rebuild(): void {
    for (const [name, route] of this.withdrawn)
      if (route.endpoint.phase === "ready" || this.fleet.endpoint(route.endpoint.config.id) !== route.endpoint)
        this.withdrawn.delete(name);
    const entries: Route[] = [];
    for (const endpoint of this.fleet.endpoints()) {
      for (const tool of this.perServer.get(endpoint.config.id) ?? []) entries.push({ endpoint, tool });
    }
    this.publish(this.names === "as-is" ? this.routesAsIs(entries) : this.routesPrefixed(entries));
  }

  /** Server-side names; the first server (config order) offering a name keeps it, later ones are clashes. */
  private routesAsIs(entries: readonly Route[]): Map<string, Route> {
    const offers = entries.map((entry) => ({ server: entry.tool.ref.server, item: entry }));
    const { kept, clashes } = firstOfferWins(offers, (entry) => entry.tool.ref.name, "tool");
    this.clashLog.update("tool", clashes);
    const routes = new Map<string, Route>();
    for (const { item } of kept) {
      const name = item.tool.ref.name;
      routes.set(name, {
        endpoint: item.endpoint,
        tool: { ...item.tool, descriptor: { ...item.tool.descriptor, name } },
      });
    }
    return routes;
  }

  private routesPrefixed(entries: readonly Route[]): Map<string, Route> {
    // Names are legal and distinct within a server; across servers two can still
    // meet (server "a__b" tool "c" vs server "a" tool "b__c"). The first in config
    // order keeps the name, later ones get a hash of server and tool appended.
    const routes = new Map<string, Route>();
    for (const entry of entries) {
      let name = entry.tool.descriptor.name;
      for (let salt = 0; routes.has(name); salt += 1) {
        const seed = `${entry.tool.ref.server}\u0000${entry.tool.ref.name}${salt === 0 ? "" : `#${salt}`}`;
        name = withNameSuffix(entry.tool.descriptor.name, shortHash(seed));
      }
      routes.set(name, { endpoint: entry.endpoint, tool: publishedTool(entry.tool, name) });
    }
    return routes;
  }

  private publish(routes: Map<string, Route>): void {
    const descriptors = [...routes.values()].map((route) => route.tool.descriptor);
    // Without recursion and shared subtrees at once: descriptors are the servers' data, of any depth.
    const changed = !sameJson(descriptors, this.descriptorList);
    this.routes = routes;
    this.descriptorList = descriptors;
    if (!changed) return;
    for (const listener of this.listeners) {
      try {
        listener();
      } catch {
        // A subscriber's bug must not break the box.
      }
    }
  }

  /** Never rejects: unknown tools and faults become `isError` outcomes. */
  private async run(call: ToolCall, options: RunOptions = {}): Promise<ToolOutcome> {
    const route = this.routes.get(call.name) ?? this.withdrawn.get(call.name);
    if (!route) return failure(call.id, `unknown tool "${call.name}"`);
    return runOn(route.endpoint, route.tool.ref.name, call, options);
  }

  /** A listed tool's call taken raw by its server's endpoint, when it can (a withdrawn one never is). */
  private forwardRaw(call: RawCall): RawForward | undefined {
    const route = this.routes.get(call.name);
    return route === undefined ? undefined : forwardRawOn(route.endpoint, route.tool.ref.name, call);
  }
}

/** A tool under its published (prefixed) name, its app view references published with it (`app-views.ts`). */
function publishedTool(tool: RemoteTool, name: string): RemoteTool {
  const wire = tool.descriptor.wire;
  const published = wire === undefined ? undefined : withPublishedViews(tool.ref.server, wire);
  if (name === tool.descriptor.name && published === wire) return tool;
  return { ...tool, descriptor: { ...tool.descriptor, name, ...(published !== undefined && { wire: published }) } };
}
