/**
 * One SDK `Server` serving a box: the unit every serving entry is built from.
 * `connect` binds one to a transport for a session, `serveStdio` pins one per
 * connection, and the HTTP host builds one per modern request. Each instance
 * keeps its own running calls, so no two clients ever share protocol state
 * (a shared server leaked responses across clients in a past SDK advisory).
 * The low-level `Server` is used on purpose: it serves the box's raw JSON
 * Schemas, where `McpServer`'s schema helpers would re-emit them.
 */
import {
  EXTENSIONS,
  type CallLogs,
  type ClientHostHooks,
  type JsonObject,
  type LogLevel,
  type ToolBox,
} from "@indus/contract";
import type { Server } from "@modelcontextprotocol/server";
import type {
  AuthInfo,
  CacheHint,
  Implementation,
  ServerCapabilities,
  ServerContext,
} from "@modelcontextprotocol/server";
import { canRead, hearsServer } from "./access/caller-box";
import { ObservedServer, type FillingBox } from "./observe/observed-server";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/server/validators/cf-worker";
import { ArgumentValidator } from "./tools/argument-validator";
import { registerCatalogHandlers } from "./catalog/catalog-handlers";
import { createClientRelay, sessionsOf } from "./relay/client-relay";
import type { ClientRelay } from "./relay/client-relay";
import { InputRounds } from "./tools/input-rounds";
import { LogRelay } from "./relay/log-relay";
import { relatedLogs, requestLogs, sessionLogs } from "./relay/call-logs";
import { registerRelayHandlers } from "./relay/relay-handlers";
import { registerSkillHandlers, relaysSkills } from "./catalog/skill-handlers";
import { TaskRelay, relaysTasks, withTasksOffered } from "./tools/task-relay";
import { ResourceSubscriptions, canSubscribe } from "./catalog/subscriptions";
import type { UpdateHolder } from "./catalog/subscriptions";
import { relayHooks } from "./relay/relay-hooks";
import { RELAY_REQUEST_OPTIONS } from "./relay/session-registry";
import type { GatewaySession, SessionRegistry } from "./relay/session-registry";
import { AS_SENT, CHECKED_BY_SERVER, handleStrictly, PAGINATED_PARAMS } from "./strict-handlers";
import { callTool, envelopeLogLevel, isModern } from "./tools/tool-call";
import type { CallScope, PreAnswer } from "./tools/tool-call";
import { toMcpTool } from "./tools/tool-mapping";

export { announceChanges, serverAnnouncer } from "./change-announcer";
export type { ChangeAnnouncer } from "./change-announcer";

/** Who the host says it is in the `initialize` and `server/discover` answers. */
export interface ProviderHostInfo {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
}

export interface ProviderHostOptions {
  /**
   * Sent to clients in `initialize` / `server/discover` as usage guidance for
   * the model; a function is read at each handshake (a box that fills after
   * the host starts: a gateway's mounts joining).
   */
  readonly instructions?: string | (() => string | undefined);
  /**
   * The box still filling (a gateway's mounts connecting): the handshake is
   * answered at once, listings and calls wait until this settles.
   */
  readonly boxReady?: PromiseLike<unknown>;
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
  /**
   * The box as one caller may see and use it (a gateway's access policy),
   * from the caller's verified credentials. Default: the box for everyone.
   */
  readonly callerBox?: (caller: AuthInfo | undefined) => ToolBox;
  /**
   * The secret sealing the gateway's task ids (at least 32 bytes): replicas
   * behind one address share it so each opens the others' ids. Default: a
   * random one per process.
   */
  readonly taskIdKey?: string;
}

/** A server and the box calls it is running. */
export interface HostInstance {
  readonly server: Server;
  /** Running calls: each one's abort handle and its settling. */
  readonly calls: Map<AbortController, Promise<void>>;
  /** Ends what the host keeps for the instance's client session (call once the server closed). */
  retire(): void;
  /** The instance's client as a receiver of resource updates (a session, or a 2026-07-28 stdio connection). */
  readonly holder: UpdateHolder;
  /** Answers of calls taken raw, replayed through the server by request id (see `stdio/raw-calls.ts`). */
  readonly preAnswered: Map<string | number, PreAnswer>;
  /** The level a 2025-era client takes its calls' logs at on this one wire (none before it initialized). */
  sessionLogLevel(): LogLevel | undefined;
}

/** Builds instances of one host, all sharing its client relay, log relay and subscriptions. */
export interface InstanceBuilder {
  /**
   * A new instance; `oneWire`: its connection carries every message on one
   * wire (stdio), so a 2025-era call's logs need not be tied to its request.
   */
  readonly build: (oneWire?: boolean, view?: ToolBox) => HostInstance;
  readonly relay: ClientRelay;
  /** Present when the box's catalog can subscribe to resources. */
  readonly subscriptions: ResourceSubscriptions | undefined;
  /** Ends the 2026-07-28 calls waiting for their client between rounds (the host is closing). */
  readonly abandonWaiting: (reason: unknown) => void;
}

/** Debounced within a tick, so a burst of box changes is one notification. */
const LIST_CHANGED_METHODS = [
  "notifications/tools/list_changed",
  "notifications/resources/list_changed",
  "notifications/prompts/list_changed",
];

const DEFAULT_LIST_TTL_MS = 60_000;

let sharedElicitationValidator: CfWorkerJsonSchemaValidator | undefined;

/** Builds fresh instances for one box; the argument validator is shared by all of them. */
export function instanceBuilder(box: ToolBox, info: ProviderHostInfo, options: ProviderHostOptions): InstanceBuilder {
  const relay = options.relay ?? createClientRelay();
  const sessions = sessionsOf(relay);
  const rounds = new InputRounds();
  const logs = new LogRelay(box.catalog, sessions);
  const subscriptions = canSubscribe(box.catalog) ? new ResourceSubscriptions(box.catalog) : undefined;
  const validator = options.validateArguments === false ? undefined : new ArgumentValidator();
  const identity: Implementation = { name: info.name, version: info.version };
  if (info.title !== undefined) identity.title = info.title;
  const capabilities = capabilitiesOf(box);
  const tasks = relaysTasks(box.catalog) ? new TaskRelay(options.taskIdKey) : undefined;
  const filling = fillingOf(options);
  const listHint: CacheHint = { ttlMs: options.listTtlMs ?? DEFAULT_LIST_TTL_MS, cacheScope: "private" };
  const cacheHints = {
    "tools/list": listHint,
    "prompts/list": listHint,
    "resources/list": listHint,
    "resources/templates/list": listHint,
  };

  const build = (oneWire = false, view: ToolBox = box): HostInstance => {
    // The SDK builds a validator per server unless given one; it only checks
    // elicitation answers, which the host never requests: the SDK's lightest serves.
    sharedElicitationValidator ??= new CfWorkerJsonSchemaValidator();
    const server = new ObservedServer(
      identity,
      {
        capabilities,
        debouncedNotificationMethods: LIST_CHANGED_METHODS,
        jsonSchemaValidator: sharedElicitationValidator,
        cacheHints,
      },
      tasks === undefined ? filling : { ...filling, capabilities: withTasksOffered },
    );
    const calls = new Map<AbortController, Promise<void>>();
    const preAnswered = new Map<string | number, PreAnswer>();
    const session = sessionOf(server, sessions, view === box ? undefined : (id) => hearsServer(view, id));
    const scope: CallScope = {
      box: view,
      validator,
      calls,
      rounds,
      relayToFor: (ctx, signal) => callRelayTo(server, ctx, signal),
      logsFor: oneWire ? session.logs : (ctx) => session.relatedLogs(ctx),
      logRelay: logs,
      tasks,
      preAnswered,
    };
    handleStrictly(server, "tools/list", PAGINATED_PARAMS, () => ({ tools: view.descriptors().map(toMcpTool) }));
    // The SDK's Server checks tools/call requests strictly itself (InvalidParams, both eras), so the
    // handler is registered with unchecked params: the plain registration would parse them twice.
    server.setRequestHandler("tools/call", { params: CHECKED_BY_SERVER }, (params, ctx) =>
      callTool(scope, params, ctx),
    );
    if (view.catalog !== undefined) {
      registerCatalogHandlers(server, view.catalog, {
        relayToOf: (ctx) => (isModern(ctx) ? undefined : callRelayTo(server, ctx, ctx.mcpReq.signal)),
        logsOf: (ctx) => (isModern(ctx) ? requestLogs(envelopeLogLevel(ctx), ctx) : scope.logsFor(ctx)),
        rounds,
      });
    }
    if (view.catalog !== undefined) registerSkillHandlers(server, view.catalog, listHint);
    if (tasks !== undefined && view.catalog !== undefined) tasks.register(server, view.catalog);
    const holder: UpdateHolder = { notify: (uri) => void server.sendResourceUpdated({ uri }).catch(() => {}) };
    registerRelayHandlers(server, {
      catalog: view.catalog,
      logs,
      subscriptions,
      session: session.current,
      holder,
      ...(view !== box && { mayRead: (uri: string) => canRead(view, uri) }),
    });
    const retire = () => {
      session.retire();
      subscriptions?.removeAll(holder);
    };
    const sessionLogLevel = () => session.logs()?.level;
    return { server, calls, retire, holder, preAnswered, sessionLogLevel };
  };
  return { build, relay, subscriptions, abandonWaiting: (reason) => rounds.abandonAll(reason) };
}

/** An instance's 2025-era client session, once it initialized, and its calls' log channels. */
interface InstanceSession {
  readonly current: () => GatewaySession | undefined;
  /** The session as the log channel of all its calls (one wire). */
  readonly logs: () => CallLogs | undefined;
  /** A log channel tied to one call's request (HTTP: it rides the call's own stream). */
  readonly relatedLogs: (ctx: ServerContext) => CallLogs | undefined;
  readonly retire: () => void;
}

/**
 * A 2025-era client becomes a session of the relay once initialized (the
 * 2026-07-28 revision has no server→client channel outside a request).
 */
function sessionOf(
  server: Server,
  sessions: SessionRegistry,
  hears: ((server: string) => boolean) | undefined,
): InstanceSession {
  let session: GatewaySession | undefined;
  let logs: CallLogs | undefined;
  let retired = false;
  server.oninitialized = () => {
    if (retired) return;
    session = sessions.open(server);
    if (session !== undefined && hears !== undefined) session.hears = hears;
    logs = session === undefined ? undefined : sessionLogs(session);
  };
  return {
    current: () => session,
    logs: () => logs,
    relatedLogs: (ctx) => (session === undefined ? undefined : relatedLogs(session, ctx)),
    retire() {
      retired = true;
      if (session !== undefined) sessions.close(session);
    },
  };
}

/**
 * The calling client as hooks: a 2025-era request sends them as requests
 * related to the call (over HTTP they ride the call's own stream). The call
 * ending or the asking server withdrawing its question cancels the request.
 */
function callRelayTo(server: Server, ctx: ServerContext, signal: AbortSignal): ClientHostHooks {
  return relayHooks(
    server.getClientCapabilities(),
    async (method, params, withdrawn) =>
      (await ctx.mcpReq.send({ method, params }, AS_SENT, {
        ...RELAY_REQUEST_OPTIONS,
        signal: withdrawn === undefined ? signal : AbortSignal.any([signal, withdrawn]),
      })) as JsonObject,
    // One 2025-era server instance serves one session: its calls are one client.
    server,
    // The call ending (the client cancelled it or hung up) is the client leaving, not a slow answer.
    signal,
  );
}

/** The options as an instance's server reads them while the box fills. */
function fillingOf(options: ProviderHostOptions): FillingBox {
  const { instructions, boxReady } = options;
  return {
    ...(boxReady !== undefined && { boxReady }),
    ...(instructions !== undefined && {
      instructions: typeof instructions === "function" ? instructions : () => instructions,
    }),
  };
}

function capabilitiesOf(box: ToolBox): ServerCapabilities {
  const capabilities: ServerCapabilities = { tools: { listChanged: true }, logging: {} };
  const catalog = box.catalog;
  if (catalog !== undefined) {
    const listChanged = catalog.onChanged !== undefined;
    capabilities.resources = { listChanged, ...(catalog.subscribe !== undefined && { subscribe: true }) };
    capabilities.prompts = { listChanged };
    if (catalog.complete !== undefined) capabilities.completions = {};
    if (relaysSkills(catalog)) capabilities.extensions = { [EXTENSIONS.skills]: {} };
  }
  return capabilities;
}
