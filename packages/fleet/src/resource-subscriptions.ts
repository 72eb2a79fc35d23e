/**
 * `resources/subscribe` for many clients over one upstream subscription per
 * resource: the first subscriber of a published URI subscribes on its owner,
 * later ones only count, and the last unsubscribe ends the upstream one. When
 * a server's endpoint is replaced (restart, reconnect), its held
 * subscriptions are made again on the new endpoint.
 */
import { protocolFault, type GatewayCallOptions, type McpEndpoint } from "@indus/contract";
import type { Owner } from "./catalog-naming";
import type { EndpointFleet } from "./server-fleet";

interface Held {
  readonly owner: Owner;
  count: number;
  /** The endpoint subscribed on, and the upstream subscribe in flight (or done). */
  endpoint: McpEndpoint;
  upstream: Promise<void>;
}

export class ResourceSubscriptions {
  /** By published URI. */
  private readonly held = new Map<string, Held>();

  constructor(private readonly fleet: EndpointFleet) {
    fleet.onEndpointsReplaced(() => this.renew());
  }

  /** Count one more subscriber of `published`; the first subscribes upstream (and its failure is everyone's). */
  async subscribe(published: string, owner: Owner, options: GatewayCallOptions = {}): Promise<void> {
    const current = this.held.get(published);
    if (current) {
      current.count += 1;
      return current.upstream;
    }
    const endpoint = this.fleet.endpoint(owner.server);
    if (!endpoint?.subscribeResource) {
      throw protocolFault("protocol", `server "${owner.server}" does not offer resource subscriptions`, undefined, {
        server: owner.server,
      });
    }
    const held: Held = { owner, count: 1, endpoint, upstream: endpoint.subscribeResource(owner.original, options) };
    this.held.set(published, held);
    try {
      await held.upstream;
    } catch (error) {
      if (this.held.get(published) === held) this.held.delete(published);
      throw error;
    }
  }

  /** One subscriber fewer; the last one ends the upstream subscription. Unknown URIs are a no-op. */
  async unsubscribe(published: string, options: GatewayCallOptions = {}): Promise<void> {
    const held = this.held.get(published);
    if (!held) return;
    held.count -= 1;
    if (held.count > 0) return;
    this.held.delete(published);
    await held.upstream.catch(() => undefined);
    const endpoint = this.fleet.endpoint(held.owner.server) ?? held.endpoint;
    if (endpoint.phase === "ready") await endpoint.unsubscribeResource?.(held.owner.original, options);
  }

  /** The published URI a server's update is about, when a client subscribed to it here. */
  publishedFor(server: string, original: string): string | undefined {
    for (const [published, held] of this.held) {
      if (held.owner.server === server && held.owner.original === original) return published;
    }
    return undefined;
  }

  /** Subscribe again on endpoints that replaced the ones subscribed on. */
  private renew(): void {
    for (const held of this.held.values()) {
      const endpoint = this.fleet.endpoint(held.owner.server);
      if (!endpoint || endpoint === held.endpoint || endpoint.phase !== "ready" || !endpoint.subscribeResource)
        continue;
      held.endpoint = endpoint;
      held.upstream = endpoint.subscribeResource(held.owner.original).catch(() => undefined);
    }
  }
}
