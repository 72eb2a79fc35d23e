/**
 * Real MCP servers from npm (devDependencies), as config rows a test writes
 * into an `mcp.json`, plus fixtures for servers that misbehave.
 */
import fs from "node:fs";
import path from "node:path";
import { FIXTURES, UNHURRIED_DEADLINES } from "@indus/testkit";

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

/**
 * Writes `servers` as an mcp.json. Each row gets start-up, list and call
 * deadlines past any test's ceiling unless it sets its own (a test about a
 * deadline does): a server slow to start on a starved machine then fails the
 * test at Jest's ceiling, naming the wait, not as a timeout fault first.
 */
export function writeConfig(dir: string, servers: Record<string, unknown>, name = "mcp.json"): string {
  const file = path.join(dir, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const rows = Object.fromEntries(Object.entries(servers).map(([id, row]) => [id, unhurried(row)]));
  fs.writeFileSync(file, `${JSON.stringify({ servers: rows }, null, 2)}\n`);
  return file;
}

function unhurried(row: unknown): unknown {
  return typeof row === "object" && row !== null && !Array.isArray(row) ? { ...UNHURRIED_DEADLINES, ...row } : row;
}
