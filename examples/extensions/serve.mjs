/**
 * The command line the extension example servers share: `--stdio` serves one
 * connection on stdin/stdout, `--port P` serves Streamable HTTP on 127.0.0.1:P
 * (both protocol eras, from the same server factory), `--log FILE` appends
 * what the server does to FILE as well as to stderr.
 */
import fs from "node:fs";
import http from "node:http";
import { parseArgs } from "node:util";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { toNodeHandler } from "@modelcontextprotocol/node";

/** `{ values }` of the shared flags plus the example's own (`options` as for `node:util` `parseArgs`). */
export function readFlags(options = {}) {
  const { values } = parseArgs({
    options: {
      stdio: { type: "boolean", default: false },
      port: { type: "string" },
      log: { type: "string" },
      ...options,
    },
  });
  if (values.stdio === (values.port !== undefined)) {
    process.stderr.write("usage: node <example>.mjs (--stdio | --port P) [--log FILE]\n");
    process.exit(2);
  }
  return values;
}

/** A line for stderr and, with `--log`, the log file (a test reads either to see what the server did). */
export function logger(name, file) {
  return (line) => {
    const text = `${name}: ${line}\n`;
    process.stderr.write(text);
    if (file !== undefined) fs.appendFileSync(file, text);
  };
}

/** Serve `factory` as the flags say; resolves once listening (HTTP prints `listening on <url>` to stderr). */
export async function serve(factory, flags, log) {
  if (flags.stdio) {
    serveStdio(factory);
    log("serving on stdio");
    return;
  }
  const handler = toNodeHandler(createMcpHandler(factory));
  const server = http.createServer((req, res) => {
    if (new URL(req.url ?? "/", "http://127.0.0.1").pathname !== "/mcp") {
      res.writeHead(404).end();
      return;
    }
    handler(req, res).catch((error) => {
      log(`request failed: ${error?.message ?? error}`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise((resolve) => server.listen(Number(flags.port), "127.0.0.1", resolve));
  const { port } = server.address();
  log(`listening on http://127.0.0.1:${port}/mcp`);
  const stop = () => server.close(() => process.exit(0));
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}
