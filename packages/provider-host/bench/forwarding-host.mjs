// The gateway under test: a provider host (the BUILT package) whose box
// forwards to @modelcontextprotocol/server-everything over stdio.
//   node forwarding-host.mjs stdio   serve one client on stdin/stdout
//   node forwarding-host.mjs http    serve Streamable HTTP; prints the URL
import { createRequire } from "node:module";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { serveHttp, serveStdio } from "../dist/index.js";
import { createForwardingBox } from "./forwarding-box.mjs";

const require = createRequire(import.meta.url);
export const EVERYTHING = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");

const upstream = new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, "stdio"], stderr: "ignore" });
const { box, close } = await createForwardingBox(upstream);

if (process.argv[2] === "http") {
  const host = await serveHttp(box, { port: 0, maxSessions: 10_000 });
  process.stdout.write(`${host.url.href}\n`);
  process.on("SIGTERM", async () => {
    await host.close({ graceMs: 500 });
    await close();
    process.exit(0);
  });
} else {
  const running = await serveStdio(box, { info: { name: "bench-gateway", version: "1.0.0" } });
  await running.waiting();
  await close();
  process.exit(0);
}
