// The v2 SDK's own floor for answering a handshake over stdio: a bare
// `McpServer` with one tool, served by the SDK's `serveStdio` (both eras),
// no indus code. bench/serve-first-answer.mjs starts it beside the gateway.
//   node bench/bare-sdk-server.mjs     serve one client on stdin/stdout
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";

const handle = serveStdio(() => {
  const server = new McpServer({ name: "bare-sdk-server", version: "1.0.0" });
  server.registerTool("ping", { description: "Answers pong." }, () => ({ content: [{ type: "text", text: "pong" }] }));
  return server;
});
process.stdin.on("end", async () => {
  await handle.close();
  process.exit(0);
});
