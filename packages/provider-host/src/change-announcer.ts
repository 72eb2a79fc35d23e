/**
 * Box changes (tools enrolled or dropped, the catalog's resources or prompts)
 * announced to clients: through one session's own server, or an HTTP
 * handler's listen streams.
 */
import type { ToolBox } from "@indus/contract";
import type { Server } from "@modelcontextprotocol/server";

/** Where a box's changes are announced: one session's server, or an HTTP handler's listen streams. */
export interface ChangeAnnouncer {
  tools(): void;
  resources(): void;
  prompts(): void;
}

/** Forwards the box's tool and catalog changes; returns the unsubscribe. */
export function announceChanges(box: ToolBox, announce: ChangeAnnouncer): () => void {
  const unsubscribers: Array<() => void> = [];
  if (box.onDescriptorsChanged !== undefined) unsubscribers.push(box.onDescriptorsChanged(() => announce.tools()));
  const catalog = box.catalog;
  if (catalog?.onChanged !== undefined) {
    unsubscribers.push(
      catalog.onChanged((change) => (change === "resources" ? announce.resources() : announce.prompts())),
    );
  }
  return () => {
    for (const unsubscribe of unsubscribers.splice(0)) unsubscribe();
  };
}

/** Announces through one server's own notifications (legacy sessions; stdio routes them to listen streams). */
export function serverAnnouncer(server: Server, isOpen: () => boolean): ChangeAnnouncer {
  const send = (notification: () => Promise<void>) => {
    if (isOpen()) notification().catch(() => {});
  };
  return {
    tools: () => send(() => server.sendToolListChanged()),
    resources: () => send(() => server.sendResourceListChanged()),
    prompts: () => send(() => server.sendPromptListChanged()),
  };
}
