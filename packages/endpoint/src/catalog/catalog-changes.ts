/** The server's announcements that its resources or prompts changed, handed to the endpoint's listeners. */
import type { Client } from "@modelcontextprotocol/client";

/** Which catalog list changed on the server. */
export type CatalogChange = "resources" | "prompts";

export class CatalogChanges {
  private readonly listeners = new Set<(change: CatalogChange) => void>();

  /** Listen for resource or prompt list changes; returns an unsubscribe. */
  onChanged(listener: (change: CatalogChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(change: CatalogChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch {
        // A listener's bug is not the server's fault.
      }
    }
  }
}

/** A session's list-change announcements, while it is `live`: tools refresh the listing, resources and prompts go to `changes`. */
export function watchListChanges(
  client: Client,
  live: () => boolean,
  refreshTools: () => void,
  changes: CatalogChanges,
): void {
  client.setNotificationHandler("notifications/tools/list_changed", () => {
    if (live()) refreshTools();
  });
  client.setNotificationHandler("notifications/resources/list_changed", () => {
    if (live()) changes.emit("resources");
  });
  client.setNotificationHandler("notifications/prompts/list_changed", () => {
    if (live()) changes.emit("prompts");
  });
}
