/**
 * Boot: provision the deck for the profile, apply `--tools` to the built-ins
 * only, then graft MCP tools from `--mcp` paths (or discovery under the cwd).
 * `--no-tools` means no built-ins and no MCP at all. A server that fails is
 * reported and skipped; boot itself never fails on a bad server or config.
 */
import { type ClientHostHooks, type ServerConfig, type ToolBox } from "@indus/contract";
import { isDeckFault, type Capability, type CheckpointStore, type DelegateRunner, type Profile } from "@indus/deck";
import {
  appNovelCards,
  builtinIds,
  chooseSearchBackend,
  deckContext,
  describeCapability,
  loadMcpCapabilities,
  provisionDeck,
  selectTools,
  type CapabilitySource,
  type McpBoot,
  type ServerProgress as DeckServerProgress,
} from "@indus/deck";
import { fileEraVerdictStore } from "@indus/endpoint";
import { fleetMount, type FleetMounted, type MountedToolBox, type NamingMode } from "@indus/fleet";
import type {
  BootedDeck,
  ConfigDiagnostic,
  DeferredTools,
  McpControl,
  ServerReport,
  ToolOrigin,
  UnofferedTool,
} from "./boot-types";
import { eraVerdictFile } from "../cli-env";
import { loadConfig } from "../config/config-load";
import type { EndpointOAuthOptions } from "@indus/endpoint";
import { FileTokenStore, defaultAuthDir } from "../auth/file-token-store";
import { emptyDeck } from "./empty-deck";
import { UsageError } from "../exit";
import { silentProgress, type ProgressSink } from "./progress";
import { nameClashes } from "./name-clashes";
import { memoryFile, ProjectMemory } from "./project-memory";
import { resourceTools } from "./resource-tools";
import { serverCatalog } from "./server-catalog";
import { startRunLogs } from "./run-logs";
import { chooseDeferred } from "../tool-search/deferral";
import { COMPOSIO_URL, ComposioBackend } from "../tool-search/composio-backend";
import { McpToolGateway } from "../tool-search/mcp-tool-gateway";

export interface BootOptions {
  readonly cwd: string;
  readonly profile: Profile;
  /** `--tools`: keep only these built-ins (MCP tools still attach). */
  readonly tools?: readonly string[];
  readonly noTools: boolean;
  readonly mcp?: readonly string[];
  readonly logDir?: string;
  readonly sessionDir?: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly progress?: ProgressSink;
  /** Tokens the MCP tool definitions may take before they are deferred behind `saas-action`; none: no limit. */
  readonly mcpToolBudget?: number;
  /** Runs `task` sub-agents; only the agent has one, so other commands leave `task` out. */
  readonly delegate?: DelegateRunner;
  /** Connect only these of the configured servers (all by default). */
  readonly selectServers?: (servers: readonly ServerConfig[]) => readonly ServerConfig[];
  /** Files `write`/`edit` change, for `/rewind`. */
  readonly checkpoint?: CheckpointStore;
  /** Composio's REST API behind `saas-action` (else `COMPOSIO_API_KEY`). */
  readonly composioApiKey?: string;
  /** Offer the model `list_resources`/`read_resource` when a mounted server has resources (the agent does). */
  readonly resourceTools?: boolean;
  /** Ask on the terminal for approval of other tools' project files and for `${input:…}` values. */
  readonly interactive?: boolean;
  /** `websearch` settings from the user's settings file (the environment is the fallback). */
  readonly webSearch?: { readonly searxngUrl?: string; readonly braveApiKey?: string; readonly tavilyApiKey?: string };
  /**
   * Who answers the mounted servers' requests (elicitation, sampling, roots):
   * the agent's terminal, or the gateway's clients. Each hook given is a
   * capability every endpoint declares; none: the servers get no such capability.
   */
  readonly clientHost?: ClientHostHooks;
  /** How mounted tools, prompts and resources are named: `prefixed` (default) or the servers' own (`as-is`). */
  readonly names?: NamingMode;
  /** False: no built-in tools or app cards, only the mounted servers' (a gateway standing in for them). */
  readonly builtins?: boolean;
  /**
   * Stop waiting for the mounted servers after this long (`mcp serve`'s boot
   * wait); the ones still connecting join when ready (`BootedDeck.settled`).
   * None: wait until every server is ready or failed.
   */
  readonly bootWaitMs?: number;
  /** Keep deferred servers' tools in the box too (a one-shot `call` runs any tool `indusr tools` lists). */
  readonly offerDeferred?: boolean;
}

const BUILTIN = new Set<string>(builtinIds());
const APP = new Set<string>(appNovelCards().map((card) => card.id));
const RESOURCE_TOOLS = new Set(["list_resources", "read_resource"]);

function serverOf(cap: Capability): string | undefined {
  const server = (cap as { server?: unknown }).server;
  return typeof server === "string" ? server : undefined;
}

/** A view of the MCP source that hides deferred servers and servers switched off for the session. */
class SwitchableSource implements CapabilitySource {
  private readonly disabled = new Set<string>();
  private readonly listeners = new Set<() => void>();
  /** A fresh object whenever the inner source's revision or the enabled set moved. */
  private token: object = {};
  private innerRevision: unknown;

  constructor(
    private readonly inner: CapabilitySource,
    private readonly deferred: ReadonlySet<string> = new Set(),
  ) {
    inner.onChanged(() => this.emit());
  }

  capabilities(): readonly Capability[] {
    return this.inner.capabilities().filter((cap) => {
      const server = serverOf(cap) ?? "";
      return !this.disabled.has(server) && !this.deferred.has(server);
    });
  }

  onChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  revision(): unknown {
    const inner = this.inner.revision?.();
    if (inner === undefined) return undefined;
    if (inner !== this.innerRevision) {
      this.innerRevision = inner;
      this.token = {};
    }
    return this.token;
  }

  setEnabled(server: string, enabled: boolean): void {
    const changed = enabled
      ? this.disabled.delete(server)
      : !this.disabled.has(server) && Boolean(this.disabled.add(server));
    if (changed) {
      this.token = {};
      this.emit();
    }
  }

  isEnabled(server: string): boolean {
    return !this.disabled.has(server);
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}

/**
 * Why a tool may be missing: servers still connecting (a gateway serving
 * before every server settled, or a server reconnecting). A prefixed name
 * of one of them says so; otherwise they are named as possible owners.
 */
function stillConnecting(servers: readonly ServerReport[], name: string): string | undefined {
  const connecting = servers.filter((s) => s.phase === "connecting" || s.phase === "idle").map((s) => s.id);
  const owner = connecting.find((id) => name.startsWith(`${id}__`));
  if (owner !== undefined) return `server "${owner}" is still connecting: its tools join when it is ready`;
  if (connecting.length === 0) return undefined;
  return `still connecting: ${connecting.map((id) => `"${id}"`).join(", ")} (their tools join when ready)`;
}

function reportsOf(mcp: McpBoot, connectMs: ReadonlyMap<string, number>): ServerReport[] {
  const mounted = new Map<string, number>();
  for (const cap of mcp.source.capabilities()) {
    const server = serverOf(cap);
    if (server !== undefined) mounted.set(server, (mounted.get(server) ?? 0) + 1);
  }
  // Live: a server still connecting at boot (a boot wait) reports how it settled later.
  const statuses = mcp.fleet?.status() ?? mcp.status;
  return mcp.servers.map((server) => {
    const status = statuses.get(server.id) ?? mcp.status.get(server.id);
    const endpoint = mcp.fleet?.endpoint(server.id);
    const origin = mcp.origins.get(server.id);
    const tail = endpoint?.stderrTail(20) ?? [];
    const listFault = endpoint?.phase === "ready" ? endpoint.listFault : undefined;
    return {
      id: server.id,
      transport: endpoint?.transportKind ?? server.transport,
      ...(endpoint?.era ? { era: endpoint.era } : {}),
      ...(origin ? { source: origin.file } : {}),
      phase: endpoint?.phase ?? status?.phase ?? "idle",
      // What the agent sees: counted after includeTools/excludeTools, not what the server listed.
      toolCount: mounted.get(server.id) ?? 0,
      ...(connectMs.has(server.id) ? { connectMs: connectMs.get(server.id)! } : {}),
      ...(status?.fault ? { fault: { kind: status.fault.kind, message: status.fault.message } } : {}),
      ...(listFault ? { listFault: { kind: listFault.kind, message: listFault.message } } : {}),
      ...(endpoint?.instructions ? { instructions: endpoint.instructions } : {}),
      ...(tail.length > 0 ? { stderrTail: tail } : {}),
    };
  });
}

function progressFeed(sink: ProgressSink, connectMs: Map<string, number>): (p: DeckServerProgress) => void {
  return (p) => {
    if (p.phase === "ready") {
      connectMs.set(p.server, Math.round(p.elapsedMs));
      sink.update({ kind: "ready", server: p.server, toolCount: p.toolCount, ms: Math.round(p.elapsedMs) });
    } else if (p.phase === "faulted") {
      connectMs.set(p.server, Math.round(p.elapsedMs));
      sink.update({
        kind: "failed",
        server: p.server,
        reason: p.fault ? `${p.fault.kind}: ${p.fault.message}` : "failed",
        ms: Math.round(p.elapsedMs),
      });
    } else if (p.phase === "connecting" || p.phase === "idle") {
      sink.update({ kind: "connecting", server: p.server });
    }
  };
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

/** Every session uses the stored sign-ins (refreshing them) and points at `mcp login` when one is missing. */
function sessionOAuth(env: NodeJS.ProcessEnv): EndpointOAuthOptions {
  return {
    store: new FileTokenStore(defaultAuthDir(env)),
    clientName: "indusr",
    signInHint: (server) => `sign in with \`indusr mcp login ${server}\``,
  };
}

/** Load and connect every configured MCP server (no deck). */
export async function connectMcp(
  options: Pick<
    BootOptions,
    | "cwd"
    | "mcp"
    | "logDir"
    | "env"
    | "progress"
    | "selectServers"
    | "interactive"
    | "clientHost"
    | "names"
    | "bootWaitMs"
  >,
): Promise<{
  mcp: McpBoot;
  reports: () => ServerReport[];
  diagnostics: ConfigDiagnostic[];
  mounted?: MountedToolBox;
  /** Each server that settles while others still connect (the last settles `mcp.settled`); returns an unsubscribe. */
  onServerSettled?: (listener: (server: string) => void) => () => void;
}> {
  const sink = options.progress ?? silentProgress;
  const connectMs = new Map<string, number>();
  let mcp: McpBoot;
  // The fleet's own box behind what the deck grafted: it knows the mounted servers' name clashes.
  let mounted: FleetMounted | undefined;
  try {
    const config = await loadConfig({
      cwd: options.cwd,
      ...(options.mcp ? { mcp: options.mcp } : {}),
      env: options.env ?? process.env,
      interactive: options.interactive === true,
    });
    mcp = await loadMcpCapabilities({ mcp: options.mcp ?? [] }, options.cwd, {
      config,
      env: options.env ?? process.env,
      // The CLI is where the deck meets the fleet: the deck only sees the mount port.
      mount: watchMount(
        (box) => (mounted = box),
        fleetMount({
          ...(options.names ? { names: options.names } : {}),
          endpointOptions: {
            ...(options.logDir ? { logDir: startRunLogs(options.logDir) } : {}),
            closeGraceMs: closeGraceMsOf(options.env ?? process.env),
            // Each server's protocol era is negotiated once, then remembered here.
            eraVerdicts: fileEraVerdictStore(eraVerdictFile(options.env ?? process.env)),
            oauth: sessionOAuth(options.env ?? process.env),
            // client_credentials servers read their secret or key from here when they connect.
            env: options.env ?? process.env,
            ...(options.clientHost ? { host: options.clientHost } : {}),
          },
        }),
      ),
      onProgress: progressFeed(sink, connectMs),
      ...(options.selectServers ? { select: options.selectServers } : {}),
      ...(options.bootWaitMs !== undefined ? { settleWithinMs: options.bootWaitMs } : {}),
    });
  } finally {
    sink.finish();
  }
  const diagnostics: ConfigDiagnostic[] = mcp.diagnostics.map((d) => ({
    kind: d.kind,
    file: d.file,
    ...(d.row ? { row: d.row } : {}),
    message: d.message,
    severity: d.severity,
  }));
  if (mcp.fault && isDeckFault(mcp.fault))
    diagnostics.push({ file: "(config)", message: mcp.fault.message, severity: "warning" });
  const fleetBox = mounted?.box;
  const fleet = mounted?.fleet;
  return {
    mcp,
    reports: () => reportsOf(mcp, connectMs),
    diagnostics,
    ...(fleetBox ? { mounted: fleetBox } : {}),
    ...(fleet
      ? { onServerSettled: (listener) => fleet.onEndpointSettled((endpoint) => listener(endpoint.config.id)) }
      : {}),
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

/** Which servers' tools stay out of the model's list, decided once the servers have listed them. */
function deferralOf(mcp: McpBoot, budgetTokens: number | undefined): DeferredTools {
  const tools = mcp.source.capabilities().map((cap) => ({
    name: cap.name,
    description: cap.description,
    parameters: cap.parameters,
    server: serverOf(cap) ?? "",
  }));
  const chosen = chooseDeferred({
    tools,
    servers: mcp.servers,
    ...(budgetTokens !== undefined ? { budgetTokens } : {}),
  });
  const deferredTools = () =>
    mcp.source
      .capabilities()
      .filter((cap) => chosen.reasons.has(serverOf(cap) ?? ""))
      .map(describeCapability);
  return {
    servers: chosen.reasons,
    descriptors: deferredTools,
    tokensBefore: chosen.tokensBefore,
    tokensAfter: chosen.tokensAfter,
    ...(budgetTokens !== undefined ? { budgetTokens } : {}),
  };
}

export async function bootDeck(options: BootOptions): Promise<BootedDeck> {
  const env = options.env ?? process.env;
  const composioKey = options.composioApiKey ?? env.COMPOSIO_API_KEY;
  const gateway = new McpToolGateway(
    options.cwd,
    composioKey ? new ComposioBackend(composioKey, env.INDUS_COMPOSIO_URL ?? COMPOSIO_URL) : undefined,
  );
  const ctx = deckContext(options.cwd, {
    framework: {
      ...(options.sessionDir ? { sessionDir: options.sessionDir } : {}),
      ...(options.delegate ? { delegate: options.delegate } : {}),
      ...(options.checkpoint ? { checkpoint: options.checkpoint } : {}),
      memory: new ProjectMemory(memoryFile(options.cwd)),
      saas: gateway,
    },
    options: { env: options.env ?? process.env, ...options.webSearch },
  });
  const search = chooseSearchBackend(ctx);
  if (options.noTools) return emptyDeck();

  let deck = provisionDeck(options.profile, ctx);
  if (options.builtins === false) deck = deck.retain(() => false);
  if (options.tools && options.tools.length > 0) {
    const selection = selectTools(
      options.tools,
      deck.tools().map((cap) => cap.name),
    );
    if (selection.unknown.length > 0) {
      const offered = deck
        .tools()
        .map((cap) => cap.name)
        .join(", ");
      throw new UsageError(
        `--tools names ${selection.unknown.map((n) => `"${n}"`).join(", ")}, which the ${options.profile} profile does not offer (it offers: ${offered})`,
      );
    }
    deck = deck.retain((cap) => selection.keep(cap));
  }

  const builtinNames = new Set(deck.tools().map((cap) => cap.name));
  const { mcp, reports, diagnostics, mounted, onServerSettled } = await connectMcp(options);
  const names = mounted ? nameClashes(mounted, builtinNames) : undefined;
  const deferred = deferralOf(mcp, options.mcpToolBudget);
  gateway.attach(mcp.source);
  const unoffered: UnofferedTool[] = [];
  if (!gateway.canServe(mcp.servers.length) && deck.tools().some((cap) => cap.name === "saas-action")) {
    deck = deck.retain((cap) => cap.name !== "saas-action");
    unoffered.push({
      tool: "saas-action",
      reason:
        "no MCP server is configured and no COMPOSIO_API_KEY is set, so there is nothing to discover or execute (add a server with `indusr mcp add`)",
    });
  }
  if (!options.delegate && deck.tools().some((cap) => cap.name === "task")) {
    deck = deck.retain((cap) => cap.name !== "task");
    unoffered.push({ tool: "task", reason: "only the agent (indusr -p, or the interactive session) runs sub-agents" });
  }
  const switchable = new SwitchableSource(
    mcp.source,
    new Set(options.offerDeferred === true ? [] : deferred.servers.keys()),
  );
  deck = deck.graft(switchable);
  const catalog = serverCatalog(mcp.fleet);
  const withResources = () =>
    (mcp.fleet?.endpoints() ?? [])
      .filter((e) => e.phase === "ready" && e.serverCapabilities?.resources !== undefined)
      .map((e) => e.config.id);
  if (options.resourceTools === true && withResources().length > 0)
    deck = deck.graft(resourceTools(catalog, withResources));
  // Mounted servers' resources and prompts ride on the box, for `mcp serve` to republish.
  const deckBox = deck.intoToolBox({ whyUnknown: (name) => stillConnecting(reports(), name) });
  const box: ToolBox = mcp.catalog ? { ...deckBox, catalog: mcp.catalog } : deckBox;
  const servers = reports();

  const control: McpControl = {
    servers: () => reports(),
    async reconnect(id) {
      const fleet = mcp.fleet;
      if (!fleet || !fleet.endpoint(id)) throw new UsageError(`no MCP server "${id}" in this session`);
      await fleet.reconnect(id);
      return reports().find((r) => r.id === id)!;
    },
    setEnabled(id, enabled) {
      if (!mcp.servers.some((s) => s.id === id)) throw new UsageError(`no MCP server "${id}" in this session`);
      switchable.setEnabled(id, enabled);
    },
    async notifyRootsChanged() {
      const ready = (mcp.fleet?.endpoints() ?? []).filter((e) => e.phase === "ready");
      const told = ready.flatMap((e) => (e.notifyRootsChanged ? [e.notifyRootsChanged()] : []));
      await Promise.all(told.map((sent) => sent.catch(() => undefined)));
      return told.length;
    },
    catalog,
  };

  const origin = (name: string): ToolOrigin =>
    BUILTIN.has(name) ? "built-in" : APP.has(name) || RESOURCE_TOOLS.has(name) ? "app" : "server";
  const close = async () => {
    await Promise.all([deck.dispose().catch(() => undefined), mcp.tearDown()]);
  };
  return {
    box,
    origin,
    servers,
    diagnostics,
    mcp: control,
    deferred,
    unoffered,
    ...(names ? { names } : {}),
    ...(search ? { webSearch: { name: search.backend.name, source: search.source } } : {}),
    settled: mcp.settled,
    ...(onServerSettled ? { onServerSettled } : {}),
    close,
  };
}
