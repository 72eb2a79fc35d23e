/**
 * A gate that lets everything through and remembers each server's latest
 * listing of each kind, with the `ui://` bodies the mount read for it:
 * `mcp approve` looks at a server's definitions exactly as the trust gate
 * would see them, to pin what it shows the user.
 */
import type { DefinitionGate, DefinitionKind, ListedDefinition } from "@indus/contract";
import type { Listings } from "@indus/deck/trust";

export class RecordingGate implements DefinitionGate {
  private readonly seen = new Map<string, Partial<Record<DefinitionKind, readonly ListedDefinition[]>>>();

  screen(server: { readonly id: string }, kind: DefinitionKind, listed: readonly ListedDefinition[]) {
    this.seen.set(server.id, { ...this.seen.get(server.id), [kind]: listed });
    return listed.map(() => ({ kind: "admit" as const, findings: [] }));
  }

  screenBody() {
    return { kind: "admit" as const, findings: [] };
  }

  /** What `server` listed, per kind it was asked for. */
  listings(server: string): Listings {
    return this.seen.get(server) ?? {};
  }
}
