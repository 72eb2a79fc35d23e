/**
 * The parts of MCP a gateway relays besides tools: completions, resource
 * subscriptions and their updates, server logs and their level, and the
 * client's roots changing. In the 2025 era each is its own method or
 * notification. The 2026-07-28 era changed three of them:
 *
 * - `resources/subscribe`/`unsubscribe` are gone: the URIs ride on the
 *   `subscriptions/listen` stream's filter (`resourceSubscriptions`), so a
 *   change of the set re-opens that stream (new one first, then the old one
 *   closed) and updates arrive on it;
 * - `logging/setLevel` is gone: the level travels in each request's `_meta`
 *   (`io.modelcontextprotocol/logLevel`), and a call's logs arrive on that
 *   call's stream; so the level set here is sent with every call;
 * - `notifications/roots/list_changed` is gone: a server asks for roots
 *   inside the call that needs them (an input request), so there is no
 *   stale list to invalidate, and `notifyRootsChanged` does nothing.
 *
 * `notifications/message` and `notifications/resources/updated` reach
 * listeners with their params exactly as sent. A new 2025-era session gets
 * the subscriptions and level again (`reapply`).
 */
import type { CallLogs, GatewayCallOptions, JsonObject, LogLevel, ProtocolEra } from "@indus/contract";
import type { Client } from "@modelcontextprotocol/client";
import { AnyResultSchema } from "../wire";

/** What the relay needs of the endpoint's live session. */
export interface RelayPort {
  /** One request on the live session; failures are the endpoint's faults. */
  request(what: string, method: string, params: JsonObject, options?: GatewayCallOptions): Promise<JsonObject>;
  /** The era of the live session (throws `not-connected` when there is none). */
  era(what: string): ProtocolEra;
  /** Re-open the 2026 era's listen stream with the current resource subscriptions. */
  relisten(): Promise<void>;
  /** `notifications/roots/list_changed` on a 2025-era session, when the client declared roots. */
  rootsChanged(): Promise<void>;
  /** The call a log message arriving now belongs to, when one can be told (see `RelayRouter.logsNow`). */
  callLogs(): CallLogs | undefined;
}

type Listener<T> = (value: T) => void;

function emit<T>(listeners: ReadonlySet<Listener<T>>, value: T): void {
  for (const listener of listeners) {
    try {
      listener(value);
    } catch {
      // A listener's bug is not the server's fault.
    }
  }
}

function deliverSafely(logs: CallLogs, params: JsonObject): void {
  try {
    logs.deliver(params);
  } catch {
    // The caller's bug is not the server's fault.
  }
}

function listen<T>(listeners: Set<Listener<T>>, listener: Listener<T>): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export class RelayMembers {
  private readonly logListeners = new Set<Listener<JsonObject>>();
  private readonly updateListeners = new Set<Listener<string>>();
  private readonly subscribed = new Set<string>();
  private level: LogLevel | undefined;

  constructor(private readonly port: RelayPort) {}

  /** The resources subscribed to (the 2026 era's listen filter). */
  get resourceSubscriptions(): readonly string[] {
    return [...this.subscribed];
  }

  /** The log level set, if any (sent with each 2026-era call that has no `CallLogs` of its own). */
  get logLevel(): LogLevel | undefined {
    return this.level;
  }

  /**
   * Deliver a session's logs and resource updates, params as sent: a log
   * message that belongs to a call with its own `CallLogs` goes there and
   * nowhere else, the others to the `onLog` listeners.
   */
  attach(client: Client, live: () => boolean): void {
    client.setNotificationHandler("notifications/message", { params: AnyResultSchema }, (_params, notification) => {
      if (!live()) return;
      const params = (notification.params ?? {}) as JsonObject;
      const call = this.port.callLogs();
      if (call === undefined) emit(this.logListeners, params);
      else deliverSafely(call, params);
    });
    client.setNotificationHandler(
      "notifications/resources/updated",
      { params: AnyResultSchema },
      (_params, notification) => {
        const uri = (notification.params as { uri?: unknown } | undefined)?.uri;
        if (live() && typeof uri === "string") emit(this.updateListeners, uri);
      },
    );
  }

  complete(params: JsonObject, options?: GatewayCallOptions): Promise<JsonObject> {
    return this.port.request("complete", "completion/complete", params, options);
  }

  async subscribeResource(uri: string, options?: GatewayCallOptions): Promise<void> {
    if (this.port.era(`subscribe to ${uri}`) === "legacy") {
      await this.port.request(`subscribe to ${uri}`, "resources/subscribe", { uri }, options);
      this.subscribed.add(uri);
      return;
    }
    if (this.subscribed.has(uri)) return;
    this.subscribed.add(uri);
    await this.port.relisten().catch((error: unknown) => {
      this.subscribed.delete(uri);
      throw error;
    });
  }

  async unsubscribeResource(uri: string, options?: GatewayCallOptions): Promise<void> {
    if (this.port.era(`unsubscribe from ${uri}`) === "legacy") {
      await this.port.request(`unsubscribe from ${uri}`, "resources/unsubscribe", { uri }, options);
      this.subscribed.delete(uri);
      return;
    }
    if (!this.subscribed.delete(uri)) return;
    await this.port.relisten();
  }

  onResourceUpdated(listener: (uri: string) => void): () => void {
    return listen(this.updateListeners, listener);
  }

  async setLogLevel(level: LogLevel, options?: GatewayCallOptions): Promise<void> {
    if (this.port.era("set the log level") === "legacy") {
      await this.port.request("set the log level", "logging/setLevel", { level }, options);
    }
    this.level = level;
  }

  /**
   * A new 2025-era session (a reconnect or a re-initialized HTTP session)
   * knows nothing of the last one's subscriptions or log level: send them
   * again. (A 2026-era session's listen filter and calls carry them already.)
   */
  reapply(): void {
    for (const uri of this.subscribed) {
      void this.port.request(`subscribe to ${uri}`, "resources/subscribe", { uri }).catch(() => undefined);
    }
    if (this.level) {
      void this.port.request("set the log level", "logging/setLevel", { level: this.level }).catch(() => undefined);
    }
  }

  onLog(listener: (params: JsonObject) => void): () => void {
    return listen(this.logListeners, listener);
  }

  notifyRootsChanged(): Promise<void> {
    return this.port.era("notify roots changed") === "legacy" ? this.port.rootsChanged() : Promise.resolve();
  }
}
