/**
 * server-everything over Streamable HTTP on 127.0.0.1 (it listens on every
 * interface when given only a port; conformance/loopback.cjs binds it to
 * loopback), for mounting by URL.
 */
import { spawn } from "node:child_process";
import net from "node:net";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { serverBin } from "./servers";
import { stopChild } from "./relay-client";

const LOOPBACK = path.join(__dirname, "..", "..", "conformance", "loopback.cjs");

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startEverythingHttp(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, ["-r", LOOPBACK, serverBin("server-everything"), "streamableHttp"], {
    env: { PATH: process.env.PATH, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    let seen = "";
    child.stderr.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      if (/listening on port/i.test(seen)) resolve();
    });
    child.once("exit", (code) => reject(new Error(`server-everything exited ${code}: ${seen}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, stop: () => stopChild(child) };
}
