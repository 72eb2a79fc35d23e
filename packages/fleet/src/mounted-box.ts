/**
 * The fleet's tools as one `ToolBox`. Descriptors are the endpoints' qualified,
 * normalized tools (after each server's include/exclude filter), in config
 * order; the runner routes a model-facing name back to its endpoint under the
 * server-side name. The box follows each server's tool-list changes and tells
 * its own subscribers when the set of descriptors changes.
 */
import {
  isProtocolFault,
  type McpEndpoint,
  type RemoteTool,
  type RunOptions,
  type ToolBox,
  type ToolCall,
  type ToolDescriptor,
  type ToolOutcome,
  type ToolRunner,
} from "@indus/contract";
import { projectResult } from "./content-projection";
import { MAX_TOOL_NAME_LENGTH, shortHash } from "./default-endpoint";
import { FleetCatalog } from "./gateway-catalog";
import type { EndpointFleet } from "./server-fleet";
import { toolFilter } from "./tool-filter";

interface Route {
  readonly endpoint: McpEndpoint;
  readonly tool: RemoteTool;
}

function failure(callId: string, text: string): ToolOutcome {
  return { callId, content: [{ type: "text", text }], isError: true };
}

export class MountedToolBox implements ToolBox {
  readonly runner: ToolRunner;
  readonly catalog: FleetCatalog;
  private readonly perServer = new Map<string, readonly RemoteTool[]>();
  private routes = new Map<string, Route>();
  private descriptorList: readonly ToolDescriptor[] = [];
  private readonly listeners = new Set<() => void>();
  private unsubscribers: (() => void)[] = [];
  private refreshing: Promise<void> = Promise.resolve();

  constructor(private readonly fleet: EndpointFleet) {
    this.runner = { run: (call, options) => this.run(call, options) };
    this.catalog = new FleetCatalog(fleet);
    fleet.onEndpointsReplaced(() => void this.refresh());
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
   * fails (or last failed), contribute nothing.
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

  private async relist(): Promise<void> {
    for (const off of this.unsubscribers) off();
    this.unsubscribers = [];
    this.perServer.clear();
    const endpoints = this.fleet.endpoints();
    await Promise.all(
      endpoints.map(async (endpoint) => {
        // A listing that just failed (timed out) is not run again at once: that would double the wait.
        if (endpoint.phase !== "ready" || endpoint.listFault) return;
        const keep = toolFilter(endpoint.config);
        try {
          const tools = await endpoint.listTools();
          this.perServer.set(
            endpoint.config.id,
            tools.filter((tool) => keep(tool.ref.name)),
          );
        } catch {
          return;
        }
        this.unsubscribers.push(
          endpoint.onToolsChanged((change) => {
            if (this.fleet.endpoint(endpoint.config.id) !== endpoint) return;
            this.perServer.set(
              endpoint.config.id,
              change.tools.filter((tool) => keep(tool.ref.name)),
            );
            this.rebuild();
          }),
        );
      }),
    );
    this.rebuild();
  }

  /** Recompute routes and descriptors; notify subscribers if anything changed. */
  private rebuild(): void {
    const entries: Route[] = [];
    for (const endpoint of this.fleet.endpoints()) {
      for (const tool of this.perServer.get(endpoint.config.id) ?? []) entries.push({ endpoint, tool });
    }
    // Names are legal and distinct within a server; across servers two can still
    // meet (server "a__b" tool "c" vs server "a" tool "b__c"). The first in config
    // order keeps the name, later ones get a hash of server and tool appended.
    const routes = new Map<string, Route>();
    for (const entry of entries) {
      let name = entry.tool.descriptor.name;
      for (let salt = 0; routes.has(name); salt += 1) {
        const seed = `${entry.tool.ref.server}\u0000${entry.tool.ref.name}${salt === 0 ? "" : `#${salt}`}`;
        name = `${entry.tool.descriptor.name.slice(0, MAX_TOOL_NAME_LENGTH - 9)}_${shortHash(seed)}`;
      }
      const tool =
        name === entry.tool.descriptor.name
          ? entry.tool
          : { ...entry.tool, descriptor: { ...entry.tool.descriptor, name } };
      routes.set(name, { endpoint: entry.endpoint, tool });
    }
    const descriptors = [...routes.values()].map((route) => route.tool.descriptor);
    const changed = JSON.stringify(descriptors) !== JSON.stringify(this.descriptorList);
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
    const route = this.routes.get(call.name);
    if (!route) return failure(call.id, `unknown tool "${call.name}"`);
    try {
      // RunOptions ({signal, onProgress}) is a subset of InvokeOptions: passed as is.
      const result = await route.endpoint.invoke(route.tool.ref.name, call.input ?? {}, options);
      return { callId: call.id, ...projectResult(result) };
    } catch (error) {
      const text = isProtocolFault(error) ? `[${error.kind}] ${error.message}` : String(error);
      return failure(call.id, text);
    }
  }
}
