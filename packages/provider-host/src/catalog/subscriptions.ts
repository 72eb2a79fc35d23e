/**
 * Resource subscriptions of a host's clients, mapped onto the catalog: the
 * first client to subscribe to a URI subscribes the gateway to it upstream,
 * the last one to leave unsubscribes it, and each update goes only to the
 * clients subscribed to that URI. A client here is a 2025-era session
 * (`resources/subscribe`) or a 2026-07-28 listen stream (its filter's
 * `resourceSubscriptions`).
 */
import type { GatewayCatalog } from "@indus/contract";

/** Whoever gets a resource's updates. */
export interface UpdateHolder {
  notify(uri: string): void;
}

type SubscribingCatalog = GatewayCatalog & Required<Pick<GatewayCatalog, "subscribe">>;

export class ResourceSubscriptions {
  private readonly holders = new Map<string, Set<UpdateHolder>>();
  /** The upstream subscribe of a URI, while it is under way or done. */
  private readonly upstream = new Map<string, Promise<void>>();

  constructor(private readonly catalog: SubscribingCatalog) {
    catalog.onResourceUpdated?.((uri) => {
      for (const holder of this.holders.get(uri) ?? []) holder.notify(uri);
    });
  }

  /** Subscribes `holder` to `uri`; rejects (and records nothing) when the upstream subscribe fails. */
  async add(holder: UpdateHolder, uri: string, signal?: AbortSignal): Promise<void> {
    let holders = this.holders.get(uri);
    if (holders === undefined) this.holders.set(uri, (holders = new Set()));
    holders.add(holder);
    let subscribing = this.upstream.get(uri);
    if (subscribing === undefined) {
      subscribing = this.catalog.subscribe(uri, signal === undefined ? undefined : { signal });
      this.upstream.set(uri, subscribing);
    }
    try {
      await subscribing;
    } catch (error) {
      if (this.upstream.get(uri) === subscribing) this.upstream.delete(uri);
      this.drop(holder, uri);
      throw error;
    }
  }

  /** Unsubscribes `holder` from `uri`; the last holder of a URI unsubscribes it upstream. */
  remove(holder: UpdateHolder, uri: string): Promise<void> {
    if (!this.drop(holder, uri) || !this.upstream.delete(uri)) return Promise.resolve();
    return this.catalog.unsubscribe?.(uri).catch(() => {}) ?? Promise.resolve();
  }

  /** Everything `holder` subscribed to (its client went away). */
  removeAll(holder: UpdateHolder): void {
    for (const [uri, holders] of [...this.holders]) if (holders.has(holder)) void this.remove(holder, uri);
  }

  /** Removes the holder; true when it was the URI's last one. */
  private drop(holder: UpdateHolder, uri: string): boolean {
    const holders = this.holders.get(uri);
    if (holders === undefined || !holders.delete(holder)) return false;
    if (holders.size > 0) return false;
    this.holders.delete(uri);
    return true;
  }
}

export function canSubscribe(catalog: GatewayCatalog | undefined): catalog is SubscribingCatalog {
  return catalog?.subscribe !== undefined;
}

/**
 * 2026-07-28 listen streams of one delivery channel (a stdio connection, an
 * HTTP handler's bus), each naming the URIs it wants in its filter. The
 * channel holds a URI while any open stream names it; the SDK's listen router
 * then hands each update only to the streams whose filter names its URI.
 */
export class ListenSubscriptions {
  private readonly streams = new Map<unknown, readonly string[]>();
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly subscriptions: ResourceSubscriptions,
    private readonly channel: UpdateHolder,
  ) {}

  /** A `subscriptions/listen` request, when it names resources. */
  opened(stream: unknown, request: unknown): void {
    const uris = resourceSubscriptionsOf(request);
    if (uris.length === 0 || this.streams.has(stream)) return;
    this.streams.set(stream, uris);
    for (const uri of uris) {
      const count = (this.counts.get(uri) ?? 0) + 1;
      this.counts.set(uri, count);
      if (count === 1) this.subscriptions.add(this.channel, uri).catch(() => this.counts.delete(uri));
    }
  }

  closed(stream: unknown): void {
    const uris = this.streams.get(stream);
    if (uris === undefined) return;
    this.streams.delete(stream);
    for (const uri of uris) {
      const count = (this.counts.get(uri) ?? 1) - 1;
      if (count > 0) {
        this.counts.set(uri, count);
        continue;
      }
      this.counts.delete(uri);
      void this.subscriptions.remove(this.channel, uri);
    }
  }

  closeAll(): void {
    for (const stream of [...this.streams.keys()]) this.closed(stream);
  }
}

/** The resource URIs a `subscriptions/listen` request's filter (`params.notifications`) names (none for anything else). */
function resourceSubscriptionsOf(request: unknown): readonly string[] {
  const message = request as { method?: unknown; params?: { notifications?: { resourceSubscriptions?: unknown } } };
  if (message?.method !== "subscriptions/listen") return [];
  const uris = message.params?.notifications?.resourceSubscriptions;
  return Array.isArray(uris) ? [...new Set(uris.filter((uri): uri is string => typeof uri === "string"))] : [];
}
