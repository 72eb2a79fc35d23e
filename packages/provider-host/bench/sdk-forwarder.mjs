// The v2 SDK's own floor for a stdio gateway: a bare low-level `Server`
// (served by the SDK's `serveStdio`, both eras) whose `tools/list` and
// `tools/call` forward to server-everything through a bare v2 `Client`, with
// no indus code in between. Whatever a stdio gateway built on two SDK stacks
// does, it does at least this much per call. Used as a path by the
// repository's bench/stdio-gateway.mjs.
//   node sdk-forwarder.mjs     serve one client on stdin/stdout
import { createRequire } from "node:module";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Server } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";

const EVERYTHING = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js");
/** Results pass through unchecked (a bridge must not reject a result the model can still read). */
const ANY_RESULT = { "~standard": { version: 1, vendor: "bench", validate: (value) => ({ value }) } };

const upstream = new Client({ name: "sdk-forwarder", version: "1.0.0" });
await upstream.connect(
  new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, "stdio"], stderr: "ignore" }),
);

const handle = serveStdio(() => {
  const server = new Server({ name: "sdk-forwarder", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler("tools/list", (request) =>
    upstream.request({ method: "tools/list", params: request.params ?? {} }, ANY_RESULT),
  );
  server.setRequestHandler("tools/call", (request, ctx) =>
    upstream.request({ method: "tools/call", params: request.params }, ANY_RESULT, { signal: ctx.mcpReq.signal }),
  );
  return server;
});
process.stdin.on("end", async () => {
  await handle.close();
  await upstream.close();
  process.exit(0);
});
