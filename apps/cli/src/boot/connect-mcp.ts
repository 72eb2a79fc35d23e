/**
 * Load and connect every configured MCP server, without a deck (`mcp status`
 * and `doctor` stop here; `bootDeck` grafts the result). The CLI is where the
 * deck meets the fleet: the deck only sees the mount port, built here with
 * everything an endpoint needs from this process (logs, close grace, era
 * verdicts, stored sign-ins, the environment, who answers server requests).
 */
import { followServerChanges, type ServerChangeListener } from "./server-changes";
import type { ClientHostHooks, DefinitionGate, ServerConfig } from "@indus/contract";
import { isDeckFault, loadMcpCapabilities, type McpBoot } from "@indus/deck";
import { fileEraVerdictStore, type EndpointOAuthOptions } from "@indus/endpoint";
import { fleetMount, type FleetMounted, type MountedToolBox, type NamingMode } from "@indus/fleet";
import { FileTokenStore, defaultAuthDir } from "../auth/file-token-store";
import { eraVerdictFile } from "../cli-env";
import { loadConfig, type ProjectFileApprover } from "../config/config-load";
import type { ConfigDiagnostic, ServerReport } from "./boot-types";
import { progressFeed, silentProgress, type ProgressSink } from "./progress";
import { startRunLogs } from "./run-logs";
import { reportsOf } from "./server-reports";
import { TrustSession } from "../trust/trust-session";
import { CatalogScreening, withCatalogIssues } from "../trust/screen-catalogs";

export interface ConnectOptions {
  readonly cwd: string;
  readonly mcp?: readonly string[];
  readonly logDir?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly progress?: ProgressSink;
  /** Connect only these of the configured servers (all by default). */
  readonly selectServers?: (servers: readonly ServerConfig[]) => readonly ServerConfig[];
  /** Ask on the terminal for approval of other tools' project files and for `${input:…}` values. */
  readonly interactive?: boolean;
  /** Who answers those approvals (the agent's one-key question); default: a line on stderr. */
  readonly approve?: ProjectFileApprover;
  /** Who answers the mounted servers' requests (elicitation, sampling, roots); none: no such capability. */
  readonly clientHost?: ClientHostHooks;
  /** How mounted tools, prompts and resources are named: `prefixed` (default) or the servers' own (`as-is`). */
  readonly names?: NamingMode;
  /** Stop waiting for the mounted servers after this long; the rest join when ready. */
  readonly bootWaitMs?: number;
  /** Pins are read from the lock files, never written (a stateless gateway replica). */
  readonly readOnlyPins?: boolean;
  /** A gate in place of the session's pins (`mcp approve` looks at definitions as they are). */
  readonly gate?: DefinitionGate;
  /** List each server's prompts, resources and templates for the trust gate as it settles (`mcp status`, `doctor`). */
  readonly screenCatalogs?: boolean;
}

export interface ConnectedMcp {
  readonly mcp: McpBoot;
  readonly reports: () => ServerReport[];
  readonly diagnostics: ConfigDiagnostic[];
  /** The trust gate the servers' definitions passed through, and each server's standing with it. */
  readonly trust: TrustSession;
  readonly mounted?: MountedToolBox;
  /** Each server that settles while others still connect (the last settles `mcp.settled`); returns an unsubscribe. */
  readonly onServerSettled?: (listener: (server: string) => void) => () => void;
  /** A server lost mid-session, or back; returns an unsubscribe. */
  readonly onServerChanged?: (listener: ServerChangeListener) => () => void;
  /** With `screenCatalogs`: the catalog screening each server started as it settled. */
  readonly catalogs?: CatalogScreening;
}

/**
 * The total time a server gets to exit after its stdin closes before SIGKILL,
 * 5 s as outrig gives (`INDUSR_CLOSE_GRACE_MS` to change it): half before
 * SIGTERM, half after.
 */
export function closeGraceMsOf(env: NodeJS.ProcessEnv): number {
  const configured = Number(env.INDUSR_CLOSE_GRACE_MS);
  const total = Number.isFinite(configured) && configured >= 0 ? configured : 5_000;
  return Math.round(total / 2);
}

/** Load and connect every configured MCP server (no deck). */
export async function connectMcp(options: ConnectOptions): Promise<ConnectedMcp> {
  const env = options.env ?? process.env;
  const sink = options.progress ?? silentProgress;
  const connectMs = new Map<string, number>();
  let mcp: McpBoot;
  // The fleet's own box behind what the deck grafted: it knows the mounted servers' name clashes.
  let mounted: FleetMounted | undefined;
  let trust: TrustSession;
  let catalogs: CatalogScreening | undefined;
  const seen = (box: FleetMounted) => {
    mounted = box;
    if (options.screenCatalogs === true) catalogs = new CatalogScreening(box.fleet);
  };
  try {
    const config = await loadConfig({
      cwd: options.cwd,
      ...(options.mcp ? { mcp: options.mcp } : {}),
      env,
      interactive: options.interactive === true,
      ...(options.approve ? { approve: options.approve } : {}),
    });
    trust = new TrustSession({
      servers: config.servers,
      origins: config.origins,
      readOnly: options.readOnlyPins === true,
      ...(options.clientHost ? { clientHost: options.clientHost } : {}),
    });
    const gate = options.gate ?? trust.gate;
    mcp = await loadMcpCapabilities({ mcp: options.mcp ?? [] }, options.cwd, {
      config,
      env,
      mount: watchMount(seen, mountPort(options, env, gate)),
      onProgress: progressFeed(sink, connectMs),
      ...(options.selectServers ? { select: options.selectServers } : {}),
      ...(options.bootWaitMs !== undefined ? { settleWithinMs: options.bootWaitMs } : {}),
    });
  } finally {
    sink.finish();
  }
  const screened = catalogs;
  const all = connected(mcp, connectMs, trust, mounted);
  if (screened === undefined) return all;
  // A catalog listing that failed makes its server degraded in every report.
  const reports = () => all.reports().map((report) => withCatalogIssues(report, screened));
  return { ...all, reports, catalogs: screened };
}

/** The fleet behind the deck's mount port, with this process's endpoint options. */
function mountPort(
  options: ConnectOptions,
  env: NodeJS.ProcessEnv,
  gate: DefinitionGate,
): (servers: readonly ServerConfig[]) => FleetMounted {
  return fleetMount({
    ...(options.names ? { names: options.names } : {}),
    // Every listing passes the trust gate before the deck, a command or the gateway sees it.
    gate,
    endpointOptions: {
      ...(options.logDir ? { logDir: startRunLogs(options.logDir) } : {}),
      closeGraceMs: closeGraceMsOf(env),
      // Each server's protocol era is negotiated once, then remembered here.
      eraVerdicts: fileEraVerdictStore(eraVerdictFile(env)),
      oauth: sessionOAuth(env),
      // client_credentials servers read their secret or key from here when they connect.
      env,
      ...(options.clientHost ? { host: options.clientHost } : {}),
    },
  });
}

/** Every session uses the stored sign-ins (refreshing them) and points at `mcp login` when one is missing. */
function sessionOAuth(env: NodeJS.ProcessEnv): EndpointOAuthOptions {
  return {
    store: new FileTokenStore(defaultAuthDir(env)),
    clientName: "indusr",
    signInHint: (server) => `sign in with \`indusr mcp login ${server}\``,
  };
}

/** A mount port that also hands each mount to `seen` (the deck only keeps the contract's view of it). */
function watchMount(
  seen: (mounted: FleetMounted) => void,
  mount: (servers: readonly ServerConfig[]) => FleetMounted,
): (servers: readonly ServerConfig[]) => FleetMounted {
  return (servers) => {
    const mounted = mount(servers);
    seen(mounted);
    return mounted;
  };
}

/** What the commands read of the connected servers: live reports, config diagnostics, the fleet's box. */
function connected(
  mcp: McpBoot,
  connectMs: ReadonlyMap<string, number>,
  trust: TrustSession,
  mounted?: FleetMounted,
): ConnectedMcp {
  const diagnostics: ConfigDiagnostic[] = mcp.diagnostics.map((d) => ({
    kind: d.kind,
    file: d.file,
    ...(d.row ? { row: d.row } : {}),
    message: d.message,
    severity: d.severity,
  }));
  if (mcp.fault && isDeckFault(mcp.fault))
    diagnostics.push({ file: "(config)", message: mcp.fault.message, severity: "warning" });
  const fleet = mounted?.fleet;
  return {
    mcp,
    reports: () => reportsOf(mcp, connectMs, trust),
    diagnostics,
    trust,
    ...(mounted?.box ? { mounted: mounted.box } : {}),
    ...(fleet
      ? {
          onServerSettled: (listener) => fleet.onEndpointSettled((endpoint) => listener(endpoint.config.id)),
          onServerChanged: (listener) => followServerChanges(fleet, () => reportsOf(mcp, connectMs, trust), listener),
        }
      : {}),
  };
}
