// A server on the v2 SDK that speaks both eras (the SDK's `serveStdio`), with
// one read-only tool answering as server-everything's `echo` does. It is the
// one server a client can call directly in the 2025 era and in 2026-07-28
// (server-everything speaks 2025 only), so bench/stdio-gateway.mjs measures
// the hop of each era against a direct call of the same era here.
//   node bench/echo-sdk-server.mjs     serve one client on stdin/stdout
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import * as z from "zod";

const handle = serveStdio(() => {
  const server = new McpServer({ name: "echo-sdk-server", version: "1.0.0" });
  server.registerTool(
    "echo",
    {
      description: "Echoes the message.",
      inputSchema: z.object({ message: z.string() }),
      annotations: { readOnlyHint: true },
    },
    ({ message }) => ({ content: [{ type: "text", text: `Echo: ${message}` }] }),
  );
  return server;
});
process.stdin.on("end", async () => {
  await handle.close();
  process.exit(0);
});
