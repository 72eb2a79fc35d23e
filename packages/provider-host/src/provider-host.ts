/**
 * The provider host: makes a `ToolBox` an MCP server. `connect` serves one
 * client over one transport with a server of its own (a 2025-era session, or
 * whatever the transport's client speaks); `factory` hands a fresh server to
 * the SDK's serving entries (`createMcpHandler` once per HTTP request,
 * `serveStdio` once per connection), which pick the protocol era.
 */
import type { ClientHostHooks, ToolBox } from "@indus/contract";
import { protocolFault } from "@indus/contract";
import type { AuthInfo, McpRequestContext, Server, Transport } from "@modelcontextprotocol/server";
import { version } from "../package.json";
import { announceChanges, instanceBuilder, serverAnnouncer } from "./host-instance";
import type { HostInstance, InstanceBuilder, ProviderHostInfo, ProviderHostOptions } from "./host-instance";
import type { ResourceSubscriptions } from "./catalog/subscriptions";

export type { ProviderHostInfo, ProviderHostOptions } from "./host-instance";

/** The identity advertised when none is given. */
export const DEFAULT_HOST_INFO: ProviderHostInfo = Object.freeze({ name: "indus-provider-host", version });

/** One live client session of the host. Keep it for the session's lifetime. */
export interface RunningProviderHost {
  /** The SDK server bound to this session (an escape hatch, e.g. for logging). */
  readonly server: Server;
  /** Calls currently running in the box for this session. */
  readonly inFlight: number;
  /** True once the transport has closed. */
  readonly closed: boolean;
  /** Resolves when the session ends: the transport closed or `cancel()` ran. */
  waiting(): Promise<void>;
  /**
   * Ends the session: aborts its running calls (each still answered, with an
   * "interrupted" JSON-RPC error, when the transport can carry it) and closes
   * the transport.
   */
  cancel(): Promise<void>;
}

export interface ProviderHost {
  readonly info: ProviderHostInfo;
  readonly box: ToolBox;
  /**
   * Serves one client over `transport` with a server of its own, announcing
   * box changes to it; `caller`, who the client is (see `callerBox`). Resolves once the transport is started; a failure to
   * start rejects with a `transport` fault.
   */
  connect(transport: Transport, caller?: AuthInfo): Promise<RunningProviderHost>;
  /**
   * A fresh, unconnected server for one serving unit of an SDK entry
   * (`createMcpHandler`, `serveStdio`). It announces nothing by itself: the
   * entry's listen streams carry changes (see `announceChanges`).
   */
  factory(context?: McpRequestContext): Server;
  /**
   * The host's clients as hooks, for the mounted servers' requests made
   * outside any call (see `createClientRelay`).
   */
  readonly clientHooks: ClientHostHooks;
}

/** How long `cancel()` lets aborted calls answer before closing the transport. */
const CANCEL_FLUSH_MS = 2_000;

export function createProviderHost(
  box: ToolBox,
  info: ProviderHostInfo = DEFAULT_HOST_INFO,
  options: ProviderHostOptions = {},
): ProviderHost {
  const builder = instanceBuilder(box, info, options);
  const { build, relay } = builder;

  async function connect(transport: Transport, caller?: AuthInfo): Promise<RunningProviderHost> {
    const view = options.callerBox?.(caller) ?? box;
    const instance = build(false, view);
    // The session hears of changes to its own view of the box only.
    const session = trackSession(view, instance);
    try {
      await instance.server.connect(transport);
    } catch (cause) {
      session.end();
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw protocolFault("transport", `provider host failed to start: ${reason}`, cause);
    }
    return session.running;
  }

  const factory = (context?: McpRequestContext) => build(false, options.callerBox?.(context?.authInfo)).server;
  const host: ProviderHost = { info, box, connect, factory, clientHooks: relay.hooks };
  builders.set(host, builder);
  return host;
}

const builders = new WeakMap<ProviderHost, InstanceBuilder>();

/** Ends a host's 2026-07-28 calls waiting between rounds: a closing serving entry calls it. */
export function abandonWaitingCalls(host: ProviderHost, why: string): void {
  builders.get(host)?.abandonWaiting(protocolFault("not-connected", why));
}

/** The resource subscriptions of a host made here (for serving entries that see listen streams). */
export function subscriptionsOf(host: ProviderHost): ResourceSubscriptions | undefined {
  return builders.get(host)?.subscriptions;
}

/** A session's lifecycle around one instance: change announcements, end, cancel. */
export function trackSession(box: ToolBox, instance: HostInstance): { running: RunningProviderHost; end(): void } {
  const { server, calls } = instance;
  let closed = false;
  let resolveEnded!: () => void;
  const ended = new Promise<void>((resolve) => (resolveEnded = resolve));
  const unsubscribe = announceChanges(
    box,
    serverAnnouncer(server, () => !closed),
  );
  const end = () => {
    if (closed) return;
    closed = true;
    abortCalls(instance, "the client session ended");
    unsubscribe();
    instance.retire();
    resolveEnded();
  };
  server.onclose = end;
  // Transport-level noise (a client's malformed frame, a dropped stream) is
  // answered by the transport; it must never surface as an unhandled error.
  server.onerror = () => {};
  let cancelling: Promise<void> | undefined;
  const running: RunningProviderHost = {
    server,
    get inFlight() {
      return calls.size;
    },
    get closed() {
      return closed;
    },
    waiting: () => ended,
    cancel() {
      cancelling ??= (async () => {
        if (closed) return;
        await interruptCalls(instance, "the provider host was cancelled");
        try {
          await server.close();
        } finally {
          end();
        }
      })();
      return cancelling;
    },
  };
  return { running, end };
}

export function abortCalls(instance: HostInstance, why: string): void {
  for (const controller of instance.calls.keys()) controller.abort(protocolFault("not-connected", why));
}

/**
 * Aborts running calls and gives them a moment to answer (with an
 * "interrupted" error) before the transport goes away.
 */
export async function interruptCalls(instance: HostInstance, why: string): Promise<void> {
  const settling = [...instance.calls.values()];
  abortCalls(instance, why);
  if (settling.length === 0) return;
  await Promise.race([Promise.all(settling), delay(CANCEL_FLUSH_MS)]);
  // A settled handler's answer reaches the transport through a few promise
  // hops inside the SDK; let those run before closing.
  await new Promise((resolve) => setImmediate(resolve));
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => {
    setTimeout(resolve, ms).unref();
  });
}
