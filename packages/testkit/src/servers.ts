/**
 * Where the test servers live, and configs for them. Endpoint, fleet and CLI
 * tests all use these, so they exercise the same fixtures.
 */
import path from "node:path";
import type { StdioServerConfig } from "@indus/contract";

export const FIXTURES = path.join(__dirname, "..", "fixtures");
const testkitRoot = path.join(__dirname, "..");

/** The entry script of an npm MCP server installed as a dev dependency. */
export function npmServerEntry(pkg: "server-everything" | "server-filesystem" | "server-memory"): string {
  return path.join(testkitRoot, "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js");
}

export function fixture(
  id: string,
  file: string,
  args: readonly string[] = [],
  extra: Partial<StdioServerConfig> = {},
): StdioServerConfig {
  return {
    transport: "stdio",
    id,
    command: process.execPath,
    args: [path.join(FIXTURES, file), ...args],
    env: {},
    ...extra,
  };
}

/** The scripted fixture server (see fixtures/scripted-server.mjs) under `id`. */
export function scripted(
  id: string,
  args: readonly string[] = [],
  extra: Partial<StdioServerConfig> = {},
): StdioServerConfig {
  return fixture(id, "scripted-server.mjs", [`name=${id}`, ...args], extra);
}

/** The hostile fixture server (fixtures/hostile-server.mjs) with `options` (`deep-schema=10000`, `era=modern`, ...). */
export function hostile(
  id: string,
  options: readonly string[],
  extra: Partial<StdioServerConfig> = {},
): StdioServerConfig {
  return fixture(id, "hostile-server.mjs", options, extra);
}

/** The fixture server whose `swap` tool changes its tool list (fixtures/changing-server.mjs). */
export function changing(id = "changing", extra: Partial<StdioServerConfig> = {}): StdioServerConfig {
  return fixture(id, "changing-server.mjs", [], extra);
}

/** The dependency-free fixture server (fixtures/tiny-server.mjs): starts in milliseconds. */
export function tiny(id: string, extra: Partial<StdioServerConfig> = {}): StdioServerConfig {
  return fixture(id, "tiny-server.mjs", [id], extra);
}

/**
 * The fixture server whose definitions change between runs
 * (fixtures/shifting-server.mjs): `definitions` is the JSON file of
 * overrides it reads at startup, `marker` a file it writes when it starts.
 */
export function shifting(
  id: string,
  files: { readonly definitions?: string; readonly marker?: string } = {},
  extra: Partial<StdioServerConfig> = {},
): StdioServerConfig {
  const args = [`name=${id}`];
  if (files.definitions) args.push(`definitions=${files.definitions}`);
  if (files.marker) args.push(`marker=${files.marker}`);
  return fixture(id, "shifting-server.mjs", args, extra);
}

export function everythingStdio(id = "everything", extra: Partial<StdioServerConfig> = {}): StdioServerConfig {
  return {
    transport: "stdio",
    id,
    command: process.execPath,
    args: [npmServerEntry("server-everything"), "stdio"],
    env: {},
    ...extra,
  };
}
