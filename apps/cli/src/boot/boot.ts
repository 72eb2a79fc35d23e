/**
 * Boot: provision the deck for the profile, apply `--tools` to the built-ins
 * only, then graft MCP tools from `--mcp` paths (or discovery under the cwd).
 * `--no-tools` means no built-ins and no MCP at all. A server that fails is
 * reported and skipped; boot itself never fails on a bad server or config.
 */
import type { ToolBox } from "@indus/contract";
import {
  appNovelCards,
  chooseSearchBackend,
  deckContext,
  describeCapability,
  provisionDeck,
  selectTools,
  type CheckpointStore,
  type DelegateRunner,
  type McpBoot,
  type Profile,
  type ToolDeck,
} from "@indus/deck";
import { builtinIds } from "@indus/deck/catalog";
import type { MountedToolBox } from "@indus/fleet";
import { UsageError } from "../exit";
import { chooseDeferred } from "../tool-search/deferral";
import { COMPOSIO_URL, ComposioBackend } from "../tool-search/composio-backend";
import { McpToolGateway } from "../tool-search/mcp-tool-gateway";
import type {
  BootedDeck,
  DeferredTools,
  McpCatalogView,
  McpControl,
  ServerReport,
  ToolOrigin,
  UnofferedTool,
} from "./boot-types";
import { connectMcp, type ConnectOptions } from "./connect-mcp";
import { emptyDeck } from "./empty-deck";
import { nameClashes } from "./name-clashes";
import { memoryFile, ProjectMemory } from "./project-memory";
import { resourceTools } from "./resource-tools";
import { serverCatalog } from "./server-catalog";
import { stillConnecting } from "./server-reports";
import { serverOf, SwitchableSource } from "./switchable-source";

export interface BootOptions extends ConnectOptions {
  readonly profile: Profile;
  /** `--tools`: keep only these built-ins (MCP tools still attach). */
  readonly tools?: readonly string[];
  readonly noTools: boolean;
  readonly sessionDir?: string;
  /** Tokens the MCP tool definitions may take before they are deferred behind `saas-action`; none: no limit. */
  readonly mcpToolBudget?: number;
  /** Runs `task` sub-agents; only the agent has one, so other commands leave `task` out. */
  readonly delegate?: DelegateRunner;
  /** Files `write`/`edit` change, for `/rewind`. */
  readonly checkpoint?: CheckpointStore;
  /** Composio's REST API behind `saas-action` (else `COMPOSIO_API_KEY`). */
  readonly composioApiKey?: string;
  /** Offer the model `list_resources`/`read_resource` when a mounted server has resources (the agent does). */
  readonly resourceTools?: boolean;
  /** `websearch` settings from the user's settings file (the environment is the fallback). */
  readonly webSearch?: { readonly searxngUrl?: string; readonly braveApiKey?: string; readonly tavilyApiKey?: string };
  /** False: no built-in tools or app cards, only the mounted servers' (a gateway standing in for them). */
  readonly builtins?: boolean;
  /** Keep deferred servers' tools in the box too (a one-shot `call` runs any tool `indusr tools` lists). */
  readonly offerDeferred?: boolean;
}

const BUILTIN = new Set<string>(builtinIds());
const APP = new Set<string>(appNovelCards().map((card) => card.id));
const RESOURCE_TOOLS = new Set(["list_resources", "read_resource"]);

function toolOrigin(name: string): ToolOrigin {
  return BUILTIN.has(name) ? "built-in" : APP.has(name) || RESOURCE_TOOLS.has(name) ? "app" : "server";
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
    options: { env, ...options.webSearch },
  });
  const search = chooseSearchBackend(ctx);
  if (options.noTools) return emptyDeck();

  let deck = builtinsOf(provisionDeck(options.profile, ctx), options);
  const builtinNames = new Set(deck.tools().map((cap) => cap.name));
  const { mcp, reports, diagnostics, mounted, onServerSettled, trust, onServerChanged } = await connectMcp(options);
  const names = mounted ? nameClashes(mounted, builtinNames) : undefined;
  const deferred = deferralOf(mcp, options.mcpToolBudget);
  gateway.attach(mcp.source);
  const unoffered: UnofferedTool[] = [];
  deck = withoutUnservable(
    deck,
    { saas: gateway.canServe(mcp.servers.length), delegate: options.delegate !== undefined },
    unoffered,
  );
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
  const deckBox = deck.intoToolBox({
    whyUnknown: (name) => trust.whyWithheld(name) ?? stillConnecting(reports(), name),
  });
  const box: ToolBox = mcp.catalog ? { ...deckBox, catalog: mcp.catalog } : deckBox;
  const servers = reports();
  const close = async () => {
    await Promise.all([deck.dispose().catch(() => undefined), mcp.tearDown()]);
  };
  return {
    box,
    origin: toolOrigin,
    servers,
    diagnostics,
    mcp: mcpControl(mcp, reports, switchable, { catalog, ...(mounted ? { mounted } : {}) }),
    deferred,
    unoffered,
    ...(names ? { names } : {}),
    ...(search ? { webSearch: { name: search.backend.name, source: search.source } } : {}),
    settled: mcp.settled,
    ...(onServerSettled ? { onServerSettled } : {}),
    trust,
    ...(onServerChanged ? { onServerChanged } : {}),
    close,
  };
}

/** The profile's built-ins, narrowed by `--builtins false` and `--tools`. */
function builtinsOf(provisioned: ToolDeck, options: BootOptions): ToolDeck {
  let deck = provisioned;
  if (options.builtins === false) deck = deck.retain(() => false);
  if (!options.tools || options.tools.length === 0) return deck;
  const offered = deck.tools().map((cap) => cap.name);
  const selection = selectTools(options.tools, offered);
  if (selection.unknown.length > 0)
    throw new UsageError(
      `--tools names ${selection.unknown.map((n) => `"${n}"`).join(", ")}, which the ${options.profile} profile does not offer (it offers: ${offered.join(", ")})`,
    );
  return deck.retain((cap) => selection.keep(cap));
}

/** Leave out the cards nothing here can serve (saying why): `saas-action` without servers or Composio, `task` outside the agent. */
function withoutUnservable(
  provisioned: ToolDeck,
  can: { readonly saas: boolean; readonly delegate: boolean },
  unoffered: UnofferedTool[],
): ToolDeck {
  let deck = provisioned;
  const has = (name: string) => deck.tools().some((cap) => cap.name === name);
  if (!can.saas && has("saas-action")) {
    deck = deck.retain((cap) => cap.name !== "saas-action");
    unoffered.push({
      tool: "saas-action",
      reason:
        "no MCP server is configured and no COMPOSIO_API_KEY is set, so there is nothing to discover or execute (add a server with `indusr mcp add`)",
    });
  }
  if (!can.delegate && has("task")) {
    deck = deck.retain((cap) => cap.name !== "task");
    unoffered.push({ tool: "task", reason: "only the agent (indusr -p, or the interactive session) runs sub-agents" });
  }
  return deck;
}

/** The session's handle on its servers: `/mcp` reconnect, enable and disable, roots changes, the catalog. */
function mcpControl(
  mcp: McpBoot,
  reports: () => ServerReport[],
  switchable: SwitchableSource,
  { catalog, mounted }: { readonly catalog: McpCatalogView; readonly mounted?: MountedToolBox },
): McpControl {
  return {
    servers: () => reports(),
    async reconnect(id) {
      const fleet = mcp.fleet;
      if (!fleet || !fleet.endpoint(id)) throw new UsageError(`no MCP server "${id}" in this session`);
      await fleet.reconnect(id);
      // The report counts its tools once the box has listed them.
      await mounted?.settled();
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
