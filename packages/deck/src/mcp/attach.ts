/**
 * Mounting MCP servers onto the deck: mount them through the host's mount
 * port (per-server isolation: a server that fails contributes nothing and is
 * reported in the status), fold their tools into the enrollment ledger, and
 * keep following tool-list changes. Plus the readers the CLI uses: status,
 * tool names, per-server counts. The deck never builds a fleet itself: the
 * host (the CLI) passes `mount`, so the deck does not depend on `@indus/fleet`.
 */
import type {
  BridgeConfig,
  EndpointPhase,
  FleetStatus,
  McpFleet,
  MountServers,
  ProtocolFault,
  ServerConfig,
  ServerFleet,
  ToolBox,
} from "@indus/contract";
import { parseServerConfig } from "@indus/contract";
import { DeckFault } from "../vocabulary";
import type { LedgerCapability, BridgeLedger } from "@indus/ledger";
import { type DeckBridgeLedger, LiveBridge, emptyBridgeLedger } from "./live-bridge";

/** One server's connection progress, for live status lines. */
export interface ServerProgress {
  readonly server: string;
  readonly phase: EndpointPhase;
  readonly toolCount: number;
  /** Since the attach began. */
  readonly elapsedMs: number;
  readonly fault?: ProtocolFault;
}

export interface AttachOptions {
  /** Mounts the servers (the CLI passes `fleetMount(...)` from `@indus/fleet`). */
  readonly mount: MountServers;
  /** Called whenever a server changes phase while the fleet connects (and once more when it settles). */
  readonly onProgress?: (progress: ServerProgress) => void;
  /** How often phases are sampled for `onProgress` (default 50 ms). */
  readonly progressIntervalMs?: number;
  /**
   * Stop waiting for the servers after this long (default: wait until every
   * one is ready or faulted). Servers still connecting then join the live
   * bridge when they become ready; `settled` says when the last one has.
   * For a gateway that must answer its clients before a hung server's
   * startup timeout.
   */
  readonly settleWithinMs?: number;
}

export interface AttachResult {
  /** The ledger after enrollment (the input ledger itself when there was nothing to attach). */
  readonly ledger: DeckBridgeLedger;
  /** The live fleet; the caller tears it down (or calls `live.detach()`). */
  readonly fleet?: McpFleet;
  readonly status?: FleetStatus;
  /** How many tools were enrolled. */
  readonly enrolled: number;
  /** Config problems (invalid or duplicate servers were skipped). Never a connection failure: those are in `status`. */
  readonly fault?: DeckFault;
  /** The mounted servers as a live capability source: graft it onto a deck to follow tool-list changes. */
  readonly live?: LiveBridge;
  /** The fleet's own tool box. */
  readonly box?: ToolBox;
  /** Resolves once every server is ready or faulted: already, unless `settleWithinMs` cut the wait short. */
  readonly settled: Promise<void>;
}

/** `settled`, or `ms` passed, whichever comes first (no deadline: `settled`). */
function settledOrAfter(settled: Promise<void>, ms: number | undefined): Promise<void> {
  if (ms === undefined) return settled;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref?.();
  });
  return Promise.race([settled, deadline]).finally(() => clearTimeout(timer));
}

function validServers(servers: readonly unknown[]): { valid: ServerConfig[]; problems: string[] } {
  const valid: ServerConfig[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  servers.forEach((server, i) => {
    const parsed = parseServerConfig(server);
    if (!parsed.ok) {
      problems.push(`servers.${i}: ${parsed.issues.map((issue) => `${issue.path}: ${issue.message}`).join(", ")}`);
    } else if (seen.has(parsed.value.id)) {
      problems.push(`servers.${i}: duplicate server id "${parsed.value.id}"`);
    } else {
      seen.add(parsed.value.id);
      valid.push(parsed.value);
    }
  });
  return { valid, problems };
}

function watchProgress(fleet: ServerFleet, started: number, options: AttachOptions): () => void {
  const report = options.onProgress;
  if (!report) return () => undefined;
  const last = new Map<string, string>();
  const sample = () => {
    for (const status of fleet.status().values()) {
      const key = `${status.phase}:${status.toolCount}`;
      if (last.get(status.server) === key) continue;
      last.set(status.server, key);
      try {
        report({ ...status, elapsedMs: Date.now() - started });
      } catch {
        // a reporter's bug must not break the attach
      }
    }
  };
  const timer = setInterval(sample, options.progressIntervalMs ?? 50);
  sample();
  return () => {
    clearInterval(timer);
    sample();
  };
}

/**
 * Connects every server in `config`, enrolls each ready server's tools into
 * `ledger`, and returns the new ledger with the live fleet (once every server
 * settled, or `settleWithinMs` passed). Never throws: an
 * empty config returns the input ledger untouched; invalid rows are skipped
 * and named in `fault`; unreachable servers show in `status`.
 */
export async function attachBridgeCapabilities(
  ledger: DeckBridgeLedger = emptyBridgeLedger(),
  config: BridgeConfig | readonly ServerConfig[],
  options: AttachOptions,
): Promise<AttachResult> {
  const servers: readonly unknown[] = Array.isArray(config) ? config : ((config as BridgeConfig).servers ?? []);
  if (servers.length === 0) return { ledger, enrolled: 0, settled: Promise.resolve() };
  const { valid, problems } = validServers(servers);
  const fault =
    problems.length > 0
      ? new DeckFault("bridge", `invalid MCP server config skipped: ${problems.join("; ")}`)
      : undefined;
  if (valid.length === 0) return { ledger, enrolled: 0, settled: Promise.resolve(), ...(fault ? { fault } : {}) };

  const started = Date.now();
  const { box, fleet, settled } = options.mount(valid);
  const stop = watchProgress(fleet, started, options);
  try {
    await settledOrAfter(settled, options.settleWithinMs);
  } finally {
    stop();
  }
  const live = new LiveBridge(ledger, box, fleet);
  return {
    ledger: live.ledger(),
    fleet,
    status: fleet.status(),
    enrolled: live.enrolled,
    ...(fault ? { fault } : {}),
    live,
    box,
    settled,
  };
}

/**
 * Retires the named servers' tools (every server in the fleet's status when
 * none are named) and closes them: the named endpoints, or the whole fleet.
 * Best effort and never throws; the withdrawal always completes.
 */
export async function detachBridge<C extends LedgerCapability>(
  ledger: BridgeLedger<C>,
  fleet: ServerFleet,
  servers?: readonly string[],
): Promise<BridgeLedger<C>> {
  const names = servers ?? [...fleet.status().keys()];
  let next = ledger;
  for (const server of names) next = next.withdrawServer(server);
  try {
    if (servers === undefined) await fleet.tearDown();
    else await Promise.all(names.map((server) => fleet.endpoint(server)?.close() ?? Promise.resolve()));
  } catch {
    // teardown is best effort
  }
  return next;
}

export function bridgeStatus(fleet: ServerFleet): FleetStatus {
  return fleet.status();
}

/** Names of every live grafted tool, in live order (no fleet handle needed). */
export function bridgeToolNames(ledger: BridgeLedger<LedgerCapability>): string[] {
  return ledger.liveCapabilities().map((cap) => cap.name);
}

/** Live tool count per server. */
export function bridgeToolCounts(ledger: BridgeLedger<LedgerCapability>): ReadonlyMap<string, number> {
  return ledger.snapshot.byServer;
}
