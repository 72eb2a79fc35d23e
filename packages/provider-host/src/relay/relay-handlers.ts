/**
 * What a client session sends that the gateway passes on to the servers
 * behind the box: its log level (`logging/setLevel`, 2025 era), resource
 * subscriptions (`resources/subscribe` / `unsubscribe`, 2025 era; 2026-07-28
 * clients subscribe on their listen stream) and word that its roots changed.
 */
import { protocolFault } from "@indus/contract";
import type { GatewayCatalog } from "@indus/contract";
import type { Server } from "@modelcontextprotocol/server";
import type { LogRelay } from "./log-relay";
import { toRpcError } from "../rpc-errors";
import type { GatewaySession } from "./session-registry";
import { SET_LEVEL_PARAMS, SUBSCRIBE_PARAMS, UNSUBSCRIBE_PARAMS, handleStrictly } from "../strict-handlers";
import type { ResourceSubscriptions, UpdateHolder } from "../catalog/subscriptions";

export interface RelayScope {
  readonly catalog: GatewayCatalog | undefined;
  readonly logs: LogRelay;
  readonly subscriptions: ResourceSubscriptions | undefined;
  /** The instance's client session, once it initialized (none for a per-request instance). */
  session(): GatewaySession | undefined;
  /** The instance as a receiver of resource updates. */
  readonly holder: UpdateHolder;
  /** Whether the instance's caller may read (so subscribe to) a resource. Default: any. */
  readonly mayRead?: (uri: string) => boolean;
}

export function registerRelayHandlers(server: Server, scope: RelayScope): void {
  // Replaces the SDK's own handler, which only filters this server's own messages.
  handleStrictly(server, "logging/setLevel", SET_LEVEL_PARAMS, async (params, ctx) => {
    await scope.logs.setLevel(scope.session(), params.level, ctx.mcpReq.signal).catch((error: unknown) => {
      throw toRpcError(error, "list");
    });
    return {};
  });
  const subscriptions = scope.subscriptions;
  if (subscriptions !== undefined) {
    handleStrictly(server, "resources/subscribe", SUBSCRIBE_PARAMS, async (params, ctx) => {
      if (scope.mayRead?.(params.uri) === false) {
        throw toRpcError(protocolFault("protocol", `Resource not found: ${params.uri}`), "resource", params.uri);
      }
      await subscriptions.add(scope.holder, params.uri, ctx.mcpReq.signal).catch((error: unknown) => {
        throw toRpcError(error, "resource", params.uri);
      });
      return {};
    });
    handleStrictly(server, "resources/unsubscribe", UNSUBSCRIBE_PARAMS, async (params) => {
      await subscriptions.remove(scope.holder, params.uri);
      return {};
    });
  }
  const notifyRootsChanged = scope.catalog?.notifyRootsChanged?.bind(scope.catalog);
  if (notifyRootsChanged !== undefined) {
    server.setNotificationHandler("notifications/roots/list_changed", () => {
      notifyRootsChanged().catch(() => {});
    });
  }
}
