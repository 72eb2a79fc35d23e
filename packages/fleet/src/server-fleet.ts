/**
 * Many endpoints with one lifecycle and per-server isolation. Every endpoint
 * is registered before any connect, so a server that fails still shows up in
 * `status()` with its fault; connects run in parallel with a bound on how many
 * are in flight (spawning a hundred servers at once would starve a small
 * machine), and each server's own startup deadline caps how long it can hold
 * a slot. A bad server never delays the others beyond that deadline, and no
 * failure ever escapes as a rejection.
 */
import os from "node:os";
import {
  parseServerConfig,
  protocolFault,
  type BridgeConfig,
  type DefinitionGate,
  type EndpointOptions,
  type EndpointStatus,
  type FleetStatus,
  type McpEndpoint,
  type McpFleet,
  type ServerConfig,
} from "@indus/contract";
import { runBounded } from "./bounded";
import { GatedEndpoint } from "./gated-endpoint";
import type { NamingMode } from "./names";
import { defaultCreateEndpoint, type CreateEndpoint } from "./default-endpoint";

export interface FleetOptions {
  /** Connects in flight at once; defaults to four per CPU (at least 4). */
  readonly concurrency?: number;
  /** Default startup deadline per server (a config's `startupTimeoutMs` wins). */
  readonly connectTimeoutMs?: number;
  /** Passed to every endpoint: log directory, timeouts, client identity... */
  readonly endpointOptions?: EndpointOptions;
  /** Builds each endpoint; the seam for in-process transports in tests and embedders. */
  readonly createEndpoint?: CreateEndpoint;
  /**
   * How a mount (`mountProtocolBridge`, `fleetMount`) publishes names:
   * `prefixed` (default, `<server>__<tool>`) or `as-is` (server-side names;
   * two servers offering one name is a clash). The fleet itself ignores it.
   */
  readonly names?: NamingMode;
  /**
   * The trust gate every endpoint's listings pass through (pins, inspection):
   * what it withholds is absent for everyone above the fleet, and using it
   * fails with a `withheld` fault. None: definitions are taken as they come.
   */
  readonly gate?: DefinitionGate;
}

/** Work the fleet does on each endpoint right after it opens, inside its connect slot. */
export type AfterOpen = (endpoint: McpEndpoint) => Promise<unknown>;

export function defaultConcurrency(): number {
  const cpus = typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length;
  return Math.max(4, cpus * 4);
}

/** The last config entry for each id wins, at that entry's position. */
function lastIdWins(servers: readonly ServerConfig[]): ServerConfig[] {
  const lastIndex = new Map<string, number>();
  servers.forEach((server, index) => lastIndex.set(server.id, index));
  return servers.filter((server, index) => lastIndex.get(server.id) === index);
}

export class EndpointFleet implements McpFleet {
  private byId = new Map<string, McpEndpoint>();
  private lastConfig: BridgeConfig | undefined;
  private readonly replacedListeners = new Set<() => void>();
  private readonly settledListeners = new Set<(endpoint: McpEndpoint) => void>();
  private generation = 0;

  constructor(
    private readonly options: FleetOptions = {},
    private readonly afterOpen?: AfterOpen,
  ) {}

  /** Replace the fleet's endpoints with one per server in `config` and connect them. Never throws. */
  async start(config: BridgeConfig): Promise<void> {
    this.lastConfig = config;
    const generation = ++this.generation;
    const previous = [...this.byId.values()];
    const servers = lastIdWins(config.servers ?? []);
    const next = new Map<string, McpEndpoint>();
    for (const server of servers) next.set(server.id, this.mint(server));
    this.byId = next;
    await Promise.all(previous.map((endpoint) => endpoint.close()));
    let pending = next.size;
    await runBounded([...next.values()], this.options.concurrency ?? defaultConcurrency(), async (endpoint) => {
      if (generation !== this.generation) return;
      try {
        await endpoint.open();
        await this.afterOpen?.(endpoint);
      } catch {
        // The endpoint keeps its own fault; the others are unaffected.
      }
      // The last one to settle is announced by the replacement that follows.
      pending -= 1;
      if (generation === this.generation && pending > 0) this.emitSettled(endpoint);
    });
    if (generation === this.generation) this.emitReplaced();
  }

  /** A fresh endpoint for one server config, with the fleet's endpoint options. */
  private mint(server: ServerConfig): McpEndpoint {
    const endpointOptions: EndpointOptions = {
      ...this.options.endpointOptions,
      timeouts: {
        ...(this.options.connectTimeoutMs === undefined ? {} : { startupMs: this.options.connectTimeoutMs }),
        ...this.options.endpointOptions?.timeouts,
      },
    };
    const make = this.options.createEndpoint ?? defaultCreateEndpoint;
    // Defaults (args, env, headers) filled in when the config is valid; an invalid one faults on open.
    const parsed = parseServerConfig(server);
    const endpoint = make(parsed.ok ? parsed.value : server, endpointOptions);
    return this.options.gate ? new GatedEndpoint(endpoint, this.options.gate) : endpoint;
  }

  /**
   * Replace one server's endpoint with a fresh one (same config) and connect
   * it; every other endpoint is untouched. Resolves to the new endpoint, or
   * undefined for an unknown id. Never throws: a failed connect is the new
   * endpoint's fault.
   */
  async reconnect(server: string): Promise<McpEndpoint | undefined> {
    const previous = this.byId.get(server);
    const config = previous?.config;
    if (!previous || !config) return undefined;
    const fresh = this.mint(config);
    this.byId = new Map([...this.byId].map(([id, endpoint]) => [id, id === server ? fresh : endpoint]));
    await previous.close().catch(() => undefined);
    try {
      await fresh.open();
      await this.afterOpen?.(fresh);
    } catch {
      // The endpoint keeps its own fault.
    }
    this.emitReplaced();
    return fresh;
  }

  spinUp(): Promise<void> {
    if (!this.lastConfig) {
      return Promise.reject(protocolFault("not-connected", "spinUp() before any start: there is no config to re-run"));
    }
    return this.start(this.lastConfig);
  }

  /** Close every endpoint in parallel; never throws. */
  async tearDown(): Promise<void> {
    this.generation += 1;
    await Promise.all([...this.byId.values()].map((endpoint) => endpoint.close().catch(() => undefined)));
  }

  endpoint(server: string): McpEndpoint | undefined {
    return this.byId.get(server);
  }

  endpoints(): readonly McpEndpoint[] {
    return [...this.byId.values()];
  }

  status(): FleetStatus {
    const out = new Map<string, EndpointStatus>();
    for (const [id, endpoint] of this.byId) out.set(id, endpoint.status());
    return out;
  }

  /** Called after each completed start: the endpoints are new objects now. */
  onEndpointsReplaced(listener: () => void): () => void {
    this.replacedListeners.add(listener);
    return () => this.replacedListeners.delete(listener);
  }

  /**
   * Called as each endpoint of a start settles (ready, its `afterOpen` work
   * done, or faulted) while others of that start are still connecting: a
   * host serving before every server settled hears of each one that joins.
   * The last to settle is announced by `onEndpointsReplaced` instead.
   */
  onEndpointSettled(listener: (endpoint: McpEndpoint) => void): () => void {
    this.settledListeners.add(listener);
    return () => this.settledListeners.delete(listener);
  }

  private emitSettled(endpoint: McpEndpoint): void {
    for (const listener of this.settledListeners) {
      try {
        listener(endpoint);
      } catch {
        // A listener's bug must not break the fleet.
      }
    }
  }

  private emitReplaced(): void {
    for (const listener of this.replacedListeners) {
      try {
        listener();
      } catch {
        // A listener's bug must not break the fleet.
      }
    }
  }
}

/** Start a fleet over `config`: returns once every server is ready or has faulted. Never throws. */
export async function startServerFleet(config: BridgeConfig, options?: FleetOptions): Promise<EndpointFleet> {
  const fleet = new EndpointFleet(options);
  await fleet.start(config);
  return fleet;
}
