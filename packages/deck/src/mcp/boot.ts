/**
 * MCP at session boot: resolve the config (explicit `--mcp` paths win,
 * otherwise the cwd is discovered), connect every server as one fleet, and
 * hand back the live capabilities to graft, with everything the CLI reports:
 * config diagnostics, where each server came from, per-server status, and a
 * teardown. Never throws; a bad config or a dead server never sinks a session.
 */
import type { FleetStatus, GatewayCatalog, McpFleet, ServerConfig } from "@indus/contract";
import type { DeckFault } from "../vocabulary";
import type { CapabilitySource } from "../tool-deck";
import { type AttachOptions, attachBridgeCapabilities } from "./attach";
import type { BridgeCapability } from "./bridge-capability";
import type { McpConfigDiagnostic, McpServerOrigin } from "./config-types";
import type { EnvLookup } from "./placeholders";
import { type DeckBridgeLedger, type LiveBridge, emptyBridgeLedger } from "./live-bridge";
import { type McpInvocation, type ResolvedMcpConfig, resolveMcpConfig } from "./resolve";

export type { McpInvocation } from "./resolve";

export interface McpBootOptions extends AttachOptions {
  /** Where HOME, XDG_CONFIG_HOME and `${VAR}` values come from (`process.env` unless injected). */
  readonly env?: EnvLookup;
  /** A ledger to enroll into (empty by default). */
  readonly ledger?: DeckBridgeLedger;
  /** `${input:id}` answers (see `ResolvedMcpConfig.pendingInputs`). */
  readonly inputs?: Readonly<Record<string, string>>;
  /** An already resolved config (the CLI resolves first to ask for approval and inputs). */
  readonly config?: ResolvedMcpConfig;
  /**
   * Which of the configured servers to connect (all by default): a one-shot
   * call connects only the server that owns its tool.
   */
  readonly select?: (servers: readonly ServerConfig[]) => readonly ServerConfig[];
}

export interface McpBoot {
  /** The tools grafted at boot. */
  readonly capabilities: readonly BridgeCapability[];
  /** What to graft onto the deck: follows each server's tool-list changes (empty when nothing was mounted). */
  readonly source: CapabilitySource;
  readonly live?: LiveBridge;
  /** The servers that were configured (and attempted), in order. */
  readonly servers: readonly ServerConfig[];
  readonly origins: ReadonlyMap<string, McpServerOrigin>;
  /** Config problems to show as warnings (file, row, message). */
  readonly diagnostics: readonly McpConfigDiagnostic[];
  readonly fleet?: McpFleet;
  /** The mounted servers' resources and prompts, for a gateway to republish. */
  readonly catalog?: GatewayCatalog;
  /** Per-server health, in config order (empty when nothing was configured). */
  readonly status: FleetStatus;
  readonly fault?: DeckFault;
  /** The enrollment ledger right after boot (`live.ledger()` is the current one). */
  readonly ledger: DeckBridgeLedger;
  /** Resolves once every server is ready or faulted: already, unless `settleWithinMs` cut the wait short. */
  readonly settled: Promise<void>;
  /** Closes every server; never throws. */
  tearDown(): Promise<void>;
}

const EMPTY_SOURCE: CapabilitySource = { capabilities: () => [], onChanged: () => () => undefined, revision: () => 0 };

export async function loadMcpCapabilities(
  invocation: McpInvocation,
  cwd: string,
  options: McpBootOptions,
): Promise<McpBoot> {
  const resolved =
    options.config ??
    resolveMcpConfig(invocation, cwd, {
      env: options.env ?? process.env,
      ...(options.inputs ? { inputs: options.inputs } : {}),
    });
  const { origins, diagnostics } = resolved;
  const servers = options.select ? options.select(resolved.servers) : resolved.servers;
  const start = options.ledger ?? emptyBridgeLedger();
  const attached = await attachBridgeCapabilities(start, servers, options);
  const live = attached.live;
  return {
    capabilities: live ? live.capabilities() : [],
    source: live ?? EMPTY_SOURCE,
    ...(live ? { live } : {}),
    servers,
    origins,
    diagnostics,
    ...(attached.fleet ? { fleet: attached.fleet } : {}),
    ...(attached.box?.catalog ? { catalog: attached.box.catalog } : {}),
    status: attached.status ?? new Map(),
    ...(attached.fault ? { fault: attached.fault } : {}),
    ledger: attached.ledger,
    settled: attached.settled,
    async tearDown() {
      if (live) await live.detach().catch(() => undefined);
      else await attached.fleet?.tearDown().catch(() => undefined);
    },
  };
}
