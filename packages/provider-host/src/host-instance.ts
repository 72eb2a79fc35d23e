/**
 * One SDK `Server` serving a box: the unit every serving entry is built from.
 * `connect` binds one to a transport for a session, `serveStdio` pins one per
 * connection, and the HTTP host builds one per modern request. Each instance
 * keeps its own running calls, so no two clients ever share protocol state
 * (a shared server leaked responses across clients in a past SDK advisory).
 * The low-level `Server` is used on purpose: it serves the box's raw JSON
 * Schemas, where `McpServer`'s schema helpers would re-emit them.
 */
import type { ClientHostHooks, JsonObject, ToolBox } from "@indus/contract";
import { Server } from "@modelcontextprotocol/server";
import type { CacheHint, Implementation, ServerCapabilities, ServerContext } from "@modelcontextprotocol/server";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
import { ArgumentValidator } from "./argument-validator";
import { registerCatalogHandlers } from "./catalog-handlers";
import { createClientRelay, sessionsOf } from "./client-relay";
import type { ClientRelay } from "./client-relay";
import { InputRounds } from "./input-rounds";
import { peerHooks } from "./peer-hooks";
import { PEER_REQUEST_OPTIONS } from "./session-registry";
import type { GatewaySession, SessionRegistry } from "./session-registry";
import { AS_SENT, CHECKED_BY_SERVER, handleStrictly, PAGINATED_PARAMS } from "./strict-handlers";
import { callTool } from "./tool-call";
import type { CallScope } from "./tool-call";
import { toMcpTool } from "./tool-mapping";

/** Who the host says it is in the `initialize` and `server/discover` answers. */
export interface ProviderHostInfo {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
}

export interface ProviderHostOptions {
  /** Sent to clients in `initialize` as usage guidance for the model. */
  readonly instructions?: string;
  /**
   * Check `tools/call` arguments against the tool's JSON Schema before the
   * box sees them (default true). Failures are `isError` results.
   */
  readonly validateArguments?: boolean;
  /**
   * How long a 2026-07-28 client may cache list results (`ttlMs`, scope
   * `private`). Default 60 s; list_changed still reaches subscribed clients.
   */
  readonly listTtlMs?: number;
  /**
   * Where the mounted servers' requests made outside any call are answered
   * (see `createClientRelay`). Default: a relay of the host's own.
   */
  readonly relay?: ClientRelay;
}

/** A server and the box calls it is running. */
export interface HostInstance {
  readonly server: Server;
  /** Running calls: each one's abort handle and its settling. */
  readonly calls: Map<AbortController, Promise<void>>;
  /** Ends what the host keeps for the instance's client session (call once the server closed). */
  retire(): void;
}

/** Builds instances of one host, all sharing its client relay. */
export interface InstanceBuilder {
  readonly build: () => HostInstance;
  readonly relay: ClientRelay;
}

/** Debounced within a tick, so a burst of box changes is one notification. */
const LIST_CHANGED_METHODS = [
  "notifications/tools/list_changed",
  "notifications/resources/list_changed",
  "notifications/prompts/list_changed",
];

const DEFAULT_LIST_TTL_MS = 60_000;

let sharedElicitationValidator: AjvJsonSchemaValidator | undefined;

/** Builds fresh instances for one box; the argument validator is shared by all of them. */
export function instanceBuilder(box: ToolBox, info: ProviderHostInfo, options: ProviderHostOptions): InstanceBuilder {
  const relay = options.relay ?? createClientRelay();
  const sessions = sessionsOf(relay);
  const rounds = new InputRounds();
  const validator = options.validateArguments === false ? undefined : new ArgumentValidator();
  const identity: Implementation = { name: info.name, version: info.version };
  if (info.title !== undefined) identity.title = info.title;
  const capabilities = capabilitiesOf(box);
  const listHint: CacheHint = { ttlMs: options.listTtlMs ?? DEFAULT_LIST_TTL_MS, cacheScope: "private" };
  const cacheHints = {
    "tools/list": listHint,
    "prompts/list": listHint,
    "resources/list": listHint,
    "resources/templates/list": listHint,
  };

  const build = (): HostInstance => {
    // The SDK builds a validator per server unless given one; it only checks
    // elicitation answers, which the host never requests.
    sharedElicitationValidator ??= new AjvJsonSchemaValidator();
    const server = new Server(identity, {
      capabilities,
      ...(options.instructions !== undefined && { instructions: options.instructions }),
      debouncedNotificationMethods: LIST_CHANGED_METHODS,
      jsonSchemaValidator: sharedElicitationValidator,
      cacheHints,
    });
    const calls = new Map<AbortController, Promise<void>>();
    const scope: CallScope = {
      box,
      validator,
      calls,
      rounds,
      peerFor: (ctx, signal) => callPeer(server, ctx, signal),
    };
    handleStrictly(server, "tools/list", PAGINATED_PARAMS, () => ({ tools: box.descriptors().map(toMcpTool) }));
    // The SDK's Server checks tools/call requests strictly itself (InvalidParams, both eras), so the
    // handler is registered with unchecked params: the plain registration would parse them twice.
    server.setRequestHandler("tools/call", { params: CHECKED_BY_SERVER }, (params, ctx) =>
      callTool(scope, params, ctx),
    );
    if (box.catalog !== undefined) registerCatalogHandlers(server, box.catalog);
    const session = sessionOf(server, sessions);
    return { server, calls, retire: () => session.retire() };
  };
  return { build, relay };
}

/**
 * A 2025-era client becomes a session of the relay once initialized (the
 * 2026-07-28 revision has no server→client channel outside a request).
 */
function sessionOf(server: Server, sessions: SessionRegistry): { retire(): void } {
  let session: GatewaySession | undefined;
  let retired = false;
  server.oninitialized = () => {
    if (!retired) session = sessions.open(server);
  };
  return {
    retire() {
      retired = true;
      if (session !== undefined) sessions.close(session);
    },
  };
}

/**
 * The calling client as hooks: a 2025-era request sends them as requests
 * related to the call (over HTTP they ride the call's own stream).
 */
function callPeer(server: Server, ctx: ServerContext, signal: AbortSignal): ClientHostHooks {
  return peerHooks(
    server.getClientCapabilities(),
    async (method, params) =>
      (await ctx.mcpReq.send({ method, params }, AS_SENT, { ...PEER_REQUEST_OPTIONS, signal })) as JsonObject,
  );
}

function capabilitiesOf(box: ToolBox): ServerCapabilities {
  const capabilities: ServerCapabilities = { tools: { listChanged: true }, logging: {} };
  const catalog = box.catalog;
  if (catalog !== undefined) {
    const listChanged = catalog.onChanged !== undefined;
    capabilities.resources = { listChanged };
    capabilities.prompts = { listChanged };
  }
  return capabilities;
}

/** Where a box's changes are announced: one session's server, or an HTTP handler's listen streams. */
export interface ChangeAnnouncer {
  tools(): void;
  resources(): void;
  prompts(): void;
}

/** Forwards the box's tool and catalog changes; returns the unsubscribe. */
export function announceChanges(box: ToolBox, announce: ChangeAnnouncer): () => void {
  const unsubscribers: Array<() => void> = [];
  if (box.onDescriptorsChanged !== undefined) unsubscribers.push(box.onDescriptorsChanged(() => announce.tools()));
  const catalog = box.catalog;
  if (catalog?.onChanged !== undefined) {
    unsubscribers.push(
      catalog.onChanged((change) => (change === "resources" ? announce.resources() : announce.prompts())),
    );
  }
  return () => {
    for (const unsubscribe of unsubscribers.splice(0)) unsubscribe();
  };
}

/** Announces through one server's own notifications (legacy sessions; stdio routes them to listen streams). */
export function serverAnnouncer(server: Server, isOpen: () => boolean): ChangeAnnouncer {
  const send = (notification: () => Promise<void>) => {
    if (isOpen()) notification().catch(() => {});
  };
  return {
    tools: () => send(() => server.sendToolListChanged()),
    resources: () => send(() => server.sendResourceListChanged()),
    prompts: () => send(() => server.sendPromptListChanged()),
  };
}
