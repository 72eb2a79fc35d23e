/**
 * A caller's view hears of a catalog change only when its own lists changed.
 * The catalog announces changes coarsely ("prompts", "resources", no server
 * named), so the view lists what it shows before and after each one and
 * passes the change on only when that differs: a caller never learns that
 * something outside its set changed. One watch per view, shared by every
 * listener (the sessions and listen streams of callers holding its grant).
 */
import { createHash } from "node:crypto";
import type { GatewayCatalog, GatewayChange, JsonObject } from "@indus/contract";

type Listener = (change: GatewayChange) => void;

/** What a caller's view lists of one kind of change: a digest of its own items. */
function lister(view: GatewayCatalog, change: GatewayChange): () => Promise<string> {
  const lists: () => Promise<readonly (readonly JsonObject[])[]> =
    change === "prompts"
      ? async () => [await view.listPrompts()]
      : () => Promise.all([view.listResources(), view.listResourceTemplates()]);
  return async () =>
    createHash("sha256")
      .update(JSON.stringify(await lists()))
      .digest("base64");
}

/**
 * `onChanged` for `view`, the caller's filtered catalog over `source`: each
 * source change is checked against the view's last listing of that kind, in
 * order (a check waits for the one before it).
 */
export function ownCatalogChanges(source: GatewayCatalog, view: GatewayCatalog): (listener: Listener) => () => void {
  const listeners = new Set<Listener>();
  let stop: (() => void) | undefined;
  const start = () => {
    const digests = new Map<GatewayChange, Promise<string | undefined>>();
    const kinds: GatewayChange[] = ["prompts", "resources"];
    for (const kind of kinds)
      digests.set(
        kind,
        lister(view, kind)().catch(() => undefined),
      );
    return source.onChanged!((change) => {
      const list = lister(view, change);
      const before = digests.get(change);
      digests.set(
        change,
        (async () => {
          const last = await before;
          const now = await list().catch(() => last);
          if (now !== last) for (const listener of [...listeners]) listener(change);
          return now;
        })(),
      );
    });
  };
  return (listener) => {
    listeners.add(listener);
    stop ??= start();
    return () => {
      listeners.delete(listener);
      if (listeners.size > 0 || stop === undefined) return;
      stop();
      stop = undefined;
    };
  };
}
