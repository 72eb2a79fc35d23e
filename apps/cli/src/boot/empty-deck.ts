/**
 * The deck of a `--no-tools` session: no built-ins, no MCP servers. Kept apart
 * from `boot.ts` so such a session never loads the deck, the SDK or zod.
 */
import type { ToolBox } from "@indus/contract";
import type { BootedDeck, McpControl } from "./boot-types";
import { UsageError } from "../exit";

export function emptyDeck(): BootedDeck {
  const box: ToolBox = {
    descriptors: () => [],
    runner: {
      run: async (call) => ({
        callId: call.id,
        isError: true,
        content: [{ type: "text", text: `no tools in this session (--no-tools): ${call.name} is unavailable` }],
      }),
    },
  };
  const mcp: McpControl = {
    servers: () => [],
    reconnect: async (id) => {
      throw new UsageError(`no MCP servers in this session (--no-tools): "${id}" cannot reconnect`);
    },
    setEnabled: (id) => {
      throw new UsageError(`no MCP servers in this session (--no-tools): "${id}" cannot be switched`);
    },
  };
  return { box, origin: () => "built-in", servers: [], diagnostics: [], mcp, close: async () => undefined };
}
