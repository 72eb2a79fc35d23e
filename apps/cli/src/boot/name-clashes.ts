/**
 * The mounted servers' name clashes as the gateway sees them: between
 * servers (the fleet reports those), and, with names kept as-is, a server's
 * tool that a built-in of the same name hides (the deck serves the built-in,
 * so a client calling that name would never reach the server).
 */
import { protocolFault, type ProtocolFault } from "@indus/contract";
import type { MountedToolBox } from "@indus/fleet";
import type { NameClashes } from "./boot-types";

/** The kept side of a clash with a built-in (`nameClashOf(fault).servers[0]`). */
export const BUILT_IN = "(built-in)";

function hiddenFault(server: string, name: string): ProtocolFault {
  return protocolFault(
    "protocol",
    `server "${server}" offers tool "${name}", which indusr's built-in of that name hides (names as-is; --no-builtins leaves only the servers' tools)`,
    undefined,
    { server, data: { nameClash: { kind: "tool", name, servers: [BUILT_IN, server] } } },
  );
}

export function nameClashes(mounted: MountedToolBox, builtins: ReadonlySet<string>): NameClashes {
  const hidden = (): Map<string, ProtocolFault> => {
    const found = new Map<string, ProtocolFault>();
    if (mounted.names === "prefixed") return found;
    for (const { name } of mounted.descriptors()) {
      const server = mounted.resolve(name)?.ref.server;
      if (builtins.has(name) && server !== undefined) found.set(`${server}\u0000${name}`, hiddenFault(server, name));
    }
    return found;
  };
  return {
    standing: async () => [...(await mounted.nameClashes()), ...hidden().values()],
    onClash: (listener) => {
      let known = new Set(hidden().keys());
      const offServers = mounted.onNameClash(listener);
      // A list change can bring a built-in's name too: tell of each such tool once.
      const offBuiltins = mounted.onDescriptorsChanged(() => {
        const now = hidden();
        for (const [key, fault] of now) if (!known.has(key)) listener(fault);
        known = new Set(now.keys());
      });
      return () => {
        offServers();
        offBuiltins();
      };
    },
  };
}
