/**
 * The MCP tools as the deck grafts them: deferred servers stay hidden, and
 * `/mcp disable` switches a server's tools off for the session without
 * disconnecting it.
 */
import type { Capability, CapabilitySource } from "@indus/deck";

/** The server a grafted capability came from (built-ins have none). */
export function serverOf(cap: Capability): string | undefined {
  const server = (cap as { server?: unknown }).server;
  return typeof server === "string" ? server : undefined;
}

/** A view of the MCP source that hides deferred servers and servers switched off for the session. */
export class SwitchableSource implements CapabilitySource {
  private readonly disabled = new Set<string>();
  private readonly listeners = new Set<() => void>();
  /** A fresh object whenever the inner source's revision or the enabled set moved. */
  private token: object = {};
  private innerRevision: unknown;

  constructor(
    private readonly inner: CapabilitySource,
    private readonly deferred: ReadonlySet<string> = new Set(),
  ) {
    inner.onChanged(() => this.emit());
  }

  capabilities(): readonly Capability[] {
    return this.inner.capabilities().filter((cap) => {
      const server = serverOf(cap) ?? "";
      return !this.disabled.has(server) && !this.deferred.has(server);
    });
  }

  onChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  revision(): unknown {
    const inner = this.inner.revision?.();
    if (inner === undefined) return undefined;
    if (inner !== this.innerRevision) {
      this.innerRevision = inner;
      this.token = {};
    }
    return this.token;
  }

  setEnabled(server: string, enabled: boolean): void {
    const changed = enabled
      ? this.disabled.delete(server)
      : !this.disabled.has(server) && Boolean(this.disabled.add(server));
    if (changed) {
      this.token = {};
      this.emit();
    }
  }

  isEnabled(server: string): boolean {
    return !this.disabled.has(server);
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}
