/**
 * Serves a box to the one client on stdin/stdout, in whichever protocol era
 * the client opens with: the SDK's `serveStdio` pins one server instance per
 * connection (a 2026-07-28 `server/discover` probe or a 2025 `initialize`),
 * and routes list_changed to `subscriptions/listen` streams for modern
 * clients. The host adds its own wire (parse-error answers, EOF, EPIPE).
 */
import type { Readable, Writable } from "node:stream";
import type { ClientHostHooks, JsonObject, ToolBox } from "@indus/contract";
import { protocolFault } from "@indus/contract";
import type { Server } from "@modelcontextprotocol/server";
import { serveStdio as sdkServeStdio } from "@modelcontextprotocol/server/stdio";
import { announceChanges, instanceBuilder, serverAnnouncer } from "../host-instance";
import type { HostInstance, ProviderHostInfo, ProviderHostOptions } from "../host-instance";
import { DEFAULT_HOST_INFO, abortCalls, interruptCalls } from "../provider-host";
import type { RunningProviderHost } from "../provider-host";
import { ListenSubscriptions } from "../catalog/subscriptions";
import { StdioHostTransport } from "./stdio-transport";
import { RawCalls, type RawCallHost } from "./raw-calls";

export { StdioHostTransport } from "./stdio-transport";

export interface StdioHostOptions extends ProviderHostOptions {
  readonly info?: ProviderHostInfo;
  /** Defaults to `process.stdin`. */
  readonly stdin?: Readable;
  /** Defaults to `process.stdout`. Nothing else may write to it. */
  readonly stdout?: Writable;
}

/** The stdio session: like a connected session, but its server exists only once the client has spoken. */
export interface StdioProviderHost extends Omit<RunningProviderHost, "server"> {
  /** The server pinned to the connection, once the client opened it. */
  readonly server: Server | undefined;
  /** The era the client opened with, once it did. */
  readonly era: "legacy" | "modern" | undefined;
  /**
   * The client as hooks for the mounted servers' requests made outside any
   * call: answered when it is a 2025-era client that declared the capability.
   */
  readonly clientHooks: ClientHostHooks;
}

/**
 * Serves `box` to the one client on stdin/stdout. `waiting()` resolves when
 * stdin ends or stdout breaks, so a host process can exit then:
 *
 *     const running = await serveStdio(box);
 *     await running.waiting();
 *     process.exit(0);
 */
export function serveStdio(box: ToolBox, options: StdioHostOptions = {}): Promise<StdioProviderHost> {
  const { build, relay, subscriptions, abandonWaiting } = instanceBuilder(
    box,
    options.info ?? DEFAULT_HOST_INFO,
    options,
  );
  const wire = new StdioHostTransport(options.stdin ?? process.stdin, options.stdout ?? process.stdout);
  const live = new Set<HostInstance>();
  let pinned: { instance: HostInstance; era: "legacy" | "modern" } | undefined;

  const raw = rawCallsOn(wire, box, options, () =>
    pinned !== undefined && live.has(pinned.instance) ? pinned : undefined,
  );
  const handle = sdkServeStdio(
    ({ era }) => {
      const instance = build(true);
      const unsubscribe = announceChanges(
        box,
        serverAnnouncer(instance.server, () => live.has(instance)),
      );
      live.add(instance);
      pinned = { instance, era };
      instance.server.onclose = () => {
        live.delete(instance);
        unsubscribe();
        abortCalls(instance, "the client session ended");
        raw.cancelAll("the client session ended");
        instance.retire();
      };
      return instance.server;
    },
    { transport: wire, onerror: () => {} },
  );
  if (subscriptions !== undefined) {
    // Whichever instance is pinned when an update comes delivers it; the SDK routes it to the listen streams.
    const listens = new ListenSubscriptions(subscriptions, {
      notify: (uri) => pinned?.instance.holder.notify(uri),
    });
    watchListens(wire, listens);
  }

  let cancelling: Promise<void> | undefined;
  return Promise.resolve({
    get server() {
      return pinned?.instance.server;
    },
    get era() {
      return pinned?.era;
    },
    clientHooks: relay.hooks,
    get inFlight() {
      let count = 0;
      for (const instance of live) count += instance.calls.size;
      return count;
    },
    get closed() {
      return wire.isClosed;
    },
    waiting: () => wire.whenClosed(),
    cancel() {
      cancelling ??= (async () => {
        if (wire.isClosed) return;
        abandonWaiting(protocolFault("not-connected", "the provider host was cancelled"));
        // A raw call's interrupted answer is replayed through the SDK: a few promise hops before it is written.
        if (raw.interruptAll("the provider host was cancelled")) await new Promise((resolve) => setImmediate(resolve));
        await Promise.all([...live].map((instance) => interruptCalls(instance, "the provider host was cancelled")));
        await handle.close();
        await wire.close();
      })();
      return cancelling;
    },
  });
}

/** Raw calls on `wire` (see `raw-calls.ts`): taken once the box is ready, from the client pinned then. */
function rawCallsOn(
  wire: StdioHostTransport,
  box: ToolBox,
  options: StdioHostOptions,
  pinned: RawCallHost["pinned"],
): RawCalls {
  let ready = options.boxReady === undefined;
  void Promise.resolve(options.boxReady).then(
    () => (ready = true),
    () => undefined,
  );
  const raw = new RawCalls({
    box,
    pinned,
    serverInfo: serverInfoOf(options.info ?? DEFAULT_HOST_INFO),
    boxReady: () => ready,
    send: (message) => wire.post(message),
    replay: (request) => wire.deliver(request),
  });
  wire.takeRaw = (value) => raw.take(value);
  return raw;
}

/** The host's identity as the SDK stamps it on a 2026-07-28 result. */
function serverInfoOf(info: ProviderHostInfo): JsonObject {
  return info.title === undefined
    ? { name: info.name, version: info.version }
    : { name: info.name, version: info.version, title: info.title };
}

/**
 * 2026-07-28 clients subscribe to resources on their listen streams, which
 * the SDK serves itself: watch the wire for them (opened by a listen request,
 * closed by a cancel naming it or the end of the connection).
 */
function watchListens(wire: StdioHostTransport, listens: ListenSubscriptions): void {
  const inbound = wire.onmessage;
  if (inbound === undefined) return;
  wire.onmessage = (...args) => {
    const message = args[0] as { id?: unknown; method?: unknown; params?: { requestId?: unknown } };
    if (message.method === "subscriptions/listen") listens.opened(message.id, message);
    else if (message.method === "notifications/cancelled") listens.closed(message.params?.requestId);
    inbound.apply(wire, args);
  };
  void wire.whenClosed().then(() => listens.closeAll());
}
