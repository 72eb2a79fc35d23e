/**
 * Real MCP servers from npm (devDependencies), as config rows a test writes
 * into an `mcp.json`, plus fixtures for servers that misbehave.
 */
import fs from "node:fs";
import path from "node:path";
import { FIXTURES } from "@indus/testkit";

const app = path.join(__dirname, "..", "..");

export function serverBin(pkg: "server-everything" | "server-filesystem" | "server-memory"): string {
  return path.join(app, "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js");
}

export const everythingRow = () => ({ command: process.execPath, args: [serverBin("server-everything"), "stdio"] });
export const filesystemRow = (root: string) => ({
  command: process.execPath,
  args: [serverBin("server-filesystem"), root],
});
export const memoryRow = (file: string) => ({
  command: process.execPath,
  args: [serverBin("server-memory")],
  env: { MEMORY_FILE_PATH: file },
});

/** One of testkit's fixture servers (packages/testkit/fixtures/<name>) run with `args`. */
export const fixtureRow = (name: string, ...args: string[]) => ({
  command: process.execPath,
  args: [path.join(FIXTURES, name), ...args],
});

/** A server that writes to stderr and exits before the handshake. */
export const crashingRow = () => ({
  command: process.execPath,
  args: ["-e", "console.error('fatal: cannot open database'); console.error('giving up'); process.exit(3)"],
});

export function writeConfig(dir: string, servers: Record<string, unknown>, name = "mcp.json"): string {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify({ servers }, null, 2)}\n`);
  return file;
}
