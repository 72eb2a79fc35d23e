/**
 * What `mcp serve` publishes of the mounted servers' tools. The default
 * profile is the read-only one, and it means it: a mounted tool is published
 * only when its server annotates it `readOnlyHint: true`; an unannotated tool
 * counts as one that changes things. `--profile survey` (or `all`) publishes
 * every mounted tool. A tool held back is also refused when called by name,
 * so a client that knows it cannot reach it through the gateway.
 */
import { isRecord, type GatewayCatalog, type ToolBox, type ToolDescriptor } from "@indus/contract";
import type { Profile } from "@indus/deck";
import type { ToolOrigin } from "../boot/boot-types";

const HELD_BACK =
  "not published: the default profile publishes only mounted tools annotated readOnlyHint: true (`indusr mcp serve --profile survey` publishes every tool)";

/** The server's own annotation, as it sent it (the deck never takes a server's word for its own permission gate). */
function annotatedReadOnly(d: ToolDescriptor): boolean {
  const annotations = d.wire?.["annotations"];
  return isRecord(annotations) && annotations["readOnlyHint"] === true;
}

/** True when `profile` publishes only read-only mounted tools. */
export function publishesReadOnly(profile: Profile): boolean {
  return profile === "authoring";
}

/** `box` as the gateway publishes it under `profile`. */
export function gatewayBox(box: ToolBox, profile: Profile, origin: (name: string) => ToolOrigin): ToolBox {
  if (!publishesReadOnly(profile)) return box;
  const split = publishedSplit(box, (d) => origin(d.name) !== "server" || annotatedReadOnly(d));
  const heldBack = (name: string) => split().heldBack.has(name);
  const gated: ToolBox = {
    descriptors: () => split().published,
    runner: {
      run: (call, options) =>
        heldBack(call.name)
          ? Promise.resolve({
              callId: call.id,
              content: [{ type: "text", text: `${call.name}: ${HELD_BACK}` }],
              isError: true,
            })
          : box.runner.run(call, options),
      // A held-back tool is never taken raw: the normal path refuses it.
      forwardRaw: (call) => (heldBack(call.name) ? undefined : box.runner.forwardRaw?.(call)),
    },
    whyUnknown: (name) => (heldBack(name) ? HELD_BACK : box.whyUnknown?.(name)),
  };
  if (box.onDescriptorsChanged) gated.onDescriptorsChanged = (listener) => box.onDescriptorsChanged!(listener);
  return box.catalog ? { ...gated, catalog: withoutHeldBack(box.catalog, heldBack) } : gated;
}

interface PublishedSplit {
  /** The same array for as long as the box hands out the same list, so a call finds its tool in an index built once. */
  readonly published: readonly ToolDescriptor[];
  readonly heldBack: ReadonlySet<string>;
}

/**
 * The box's tools split into published and held back, worked out once per
 * list the box hands out (a box hands out the same list while its tools
 * stand), not on every call.
 */
function publishedSplit(box: ToolBox, published: (d: ToolDescriptor) => boolean): () => PublishedSplit {
  let source: readonly ToolDescriptor[] | undefined;
  let split: PublishedSplit = { published: [], heldBack: new Set() };
  return () => {
    const all = box.descriptors();
    if (all !== source) {
      source = all;
      const held = all.filter((d) => !published(d));
      split = { published: all.filter(published), heldBack: new Set(held.map((d) => d.name)) };
    }
    return split;
  };
}

/** The catalog, except that a held-back tool is never passed on unlisted (as-is names, one server). */
function withoutHeldBack(catalog: GatewayCatalog, heldBack: (name: string) => boolean): GatewayCatalog {
  return new Proxy(catalog, {
    get(target, key, receiver) {
      if (key === "unlistedTool" && target.unlistedTool)
        return (name: string) => (heldBack(name) ? undefined : target.unlistedTool!(name));
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
