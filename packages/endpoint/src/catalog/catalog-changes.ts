/** The server's announcements that its resources or prompts changed, handed to the endpoint's listeners. */

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
