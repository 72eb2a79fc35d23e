/**
 * The box `mcp serve --stdio` serves before its deck has booted, so the
 * handshake is answered while the deck, the MCP client side and the mounts
 * are still loading. It forwards to the booted gateway's box once bound; the
 * provider host holds every listing and call until the box is ready (bound,
 * then the boot wait), so before the bind only the handshake reads it: no
 * tools yet, and the catalog's members (what the capabilities declare) fixed
 * from the flags alone.
 */
import { protocolFault, type ToolBox } from "@indus/contract";
import { LateCatalog } from "./late-catalog";

export interface LateBox {
  readonly box: ToolBox;
  /** Serve `booted` from now on. */
  bind(booted: ToolBox): void;
}

/** `withCatalog`: the gateway republishes mounted servers' resources and prompts (anything but `--no-tools`). */
export function lateBox(withCatalog: boolean): LateBox {
  let target: ToolBox | undefined;
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of listeners) listener();
  };
  const catalog = withCatalog ? new LateCatalog() : undefined;
  const box: ToolBox = {
    descriptors: () => target?.descriptors() ?? [],
    runner: {
      run: (call, options) =>
        target === undefined
          ? Promise.reject(protocolFault("not-connected", `${call.name}: the gateway has not started yet`))
          : target.runner.run(call, options),
      forwardRaw: (call) => target?.runner.forwardRaw?.(call),
    },
    onDescriptorsChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    whyUnknown: (name) => target?.whyUnknown?.(name),
    ...(catalog !== undefined && { catalog }),
  };
  return {
    box,
    bind(booted) {
      target = booted;
      booted.onDescriptorsChanged?.(changed);
      catalog?.bind(booted.catalog);
    },
  };
}
