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
  const published = (d: ToolDescriptor) => origin(d.name) !== "server" || annotatedReadOnly(d);
  const heldBack = (name: string) => box.descriptors().some((d) => d.name === name && !published(d));
  const gated: ToolBox = {
    descriptors: () => box.descriptors().filter(published),
    runner: {
      run: (call, options) =>
        heldBack(call.name)
          ? Promise.resolve({
              callId: call.id,
              content: [{ type: "text", text: `${call.name}: ${HELD_BACK}` }],
              isError: true,
            })
          : box.runner.run(call, options),
    },
    whyUnknown: (name) => (heldBack(name) ? HELD_BACK : box.whyUnknown?.(name)),
  };
  if (box.onDescriptorsChanged) gated.onDescriptorsChanged = (listener) => box.onDescriptorsChanged!(listener);
  return box.catalog ? { ...gated, catalog: withoutHeldBack(box.catalog, heldBack) } : gated;
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
