/**
 * `indusr mcp add | remove | import`: edits of the project or user config that
 * keep everything else in the file and never lose it on error.
 */
import path from "node:path";
import { SERVER_ID_PATTERN } from "@indus/contract";
import { loadManagedPolicy, readPeerFile, type ImportedServer, type ManagedPolicy } from "@indus/deck/mcp-config";
import { DIALECT_OF, importPlaces, type ImportClient } from "../config/import-sources";
import { REDACTED, redactEnvValue, redactUrl } from "../redact";
import {
  addServerToFile,
  configPathFor,
  ConfigFileError,
  listServerNames,
  removeServerFromFile,
  type Scope,
} from "../config/config-file";
import { cliEnv } from "../cli-env";
import { policyRefusal } from "../trust/policy-check";
import { EXIT, UsageError } from "../exit";

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

interface AddOptions {
  scope: Scope;
  env?: string[];
  header?: string[];
  url?: string;
  transport?: "http" | "sse";
  force?: boolean;
  cwd?: string;
  json?: boolean;
}

function parsePairs(
  items: readonly string[] | undefined,
  separator: "=" | ":",
  flag: string,
  nameRule: RegExp,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of items ?? []) {
    const at = item.indexOf(separator);
    const key = at > 0 ? item.slice(0, at).trim() : "";
    if (!key || !nameRule.test(key)) {
      const shape = separator === "=" ? "KEY=VALUE" : "Name: value";
      throw new UsageError(`${flag} "${item}" is not ${shape}`);
    }
    out[key] = item.slice(at + 1).trim();
  }
  return out;
}

/** The config row `mcp add` writes, in the format `loadMcpConfig` reads. */
export function rowForAdd(command: readonly string[], options: AddOptions): Record<string, unknown> {
  const env = parsePairs(options.env, "=", "-e/--env", ENV_NAME);
  const headers = parsePairs(options.header, ":", "-H/--header", HEADER_NAME);
  if (options.url !== undefined) {
    if (command.length > 0) throw new UsageError("give either --url or a command after --, not both");
    let url: URL;
    try {
      url = new URL(options.url);
    } catch {
      throw new UsageError(`--url "${options.url}" is not a URL`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw new UsageError(`--url must be http:// or https://, not ${url.protocol}`);
    if (Object.keys(env).length > 0)
      throw new UsageError("-e/--env applies to stdio servers; a remote server takes -H/--header");
    return {
      url: options.url,
      ...(options.transport === "sse" ? { transport: "sse" } : {}),
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
    };
  }
  if (options.transport !== undefined) throw new UsageError("--transport applies to --url servers");
  if (Object.keys(headers).length > 0)
    throw new UsageError("-H/--header applies to --url servers; a stdio server takes -e/--env");
  const [program, ...args] = command;
  if (program === undefined)
    throw new UsageError(
      "give the server's command after --, e.g. `indusr mcp add fs -- npx -y @modelcontextprotocol/server-filesystem .`, or --url",
    );
  return { command: program, ...(args.length > 0 ? { args } : {}), ...(Object.keys(env).length > 0 ? { env } : {}) };
}

export async function mcpAddCommand(name: string, command: string[], options: AddOptions): Promise<number> {
  if (!SERVER_ID_PATTERN.test(name)) {
    throw new UsageError(`server name "${name}" must start with a letter and hold only letters, digits, _ or -`);
  }
  const row = rowForAdd(command, options);
  const cli = cliEnv(options);
  const refused = policyRefusal(name, row, cli.env);
  if (refused !== undefined) {
    process.stderr.write(`indusr: ${refused}; not added\n`);
    return EXIT.failed;
  }
  const file = configPathFor(options.scope, cli);
  try {
    addServerToFile(file, name, row, { replace: options.force === true });
  } catch (error) {
    if (error instanceof ConfigFileError) {
      process.stderr.write(`indusr: ${error.message}\n`);
      return EXIT.failed;
    }
    throw error;
  }
  if (options.json) process.stdout.write(`${JSON.stringify({ added: name, file, row })}\n`);
  else process.stdout.write(`Added ${"url" in row ? "remote" : "stdio"} server ${name} to ${file}\n`);
  return EXIT.ok;
}

export async function mcpRemoveCommand(name: string, options: { scope?: Scope; cwd?: string }): Promise<number> {
  const cli = cliEnv(options);
  const scopes: Scope[] = options.scope ? [options.scope] : ["project", "user"];
  const removedFrom: string[] = [];
  try {
    for (const scope of scopes) {
      const file = configPathFor(scope, cli);
      if (removeServerFromFile(file, name)) removedFrom.push(file);
    }
  } catch (error) {
    if (error instanceof ConfigFileError) {
      process.stderr.write(`indusr: ${error.message}\n`);
      return EXIT.failed;
    }
    throw error;
  }
  if (removedFrom.length === 0) {
    const looked = scopes.map((scope) => configPathFor(scope, cli)).join(", ");
    process.stderr.write(`indusr: no server named "${name}" in ${looked}\n`);
    return EXIT.failed;
  }
  for (const file of removedFrom) process.stdout.write(`Removed ${name} from ${file}\n`);
  return EXIT.ok;
}

interface ImportOptions {
  from: ImportClient;
  scope: Scope;
  file?: string;
  dryRun?: boolean;
  force?: boolean;
  cwd?: string;
  json?: boolean;
}

/** Values in a row that look like a literal credential (not a `${VAR}` reference). */
export function literalSecrets(row: Record<string, unknown>): string[] {
  const found: string[] = [];
  const isReference = (v: string) => v.includes("${");
  for (const [key, value] of Object.entries((row.env ?? {}) as Record<string, string>))
    if (!isReference(value) && redactEnvValue(key, value) === REDACTED) found.push(`env ${key}`);
  for (const [key, value] of Object.entries((row.headers ?? {}) as Record<string, string>))
    if (!isReference(value) && value.trim() !== "") found.push(`header ${key}`);
  if (typeof row.url === "string" && !isReference(row.url) && redactUrl(row.url) !== row.url) found.push("url");
  return found;
}

interface ImportResult {
  readonly name: string;
  readonly source: string;
  readonly row: string;
  readonly action: "added" | "replaced" | "skipped" | "invalid" | "denied";
  readonly why?: string;
  readonly notes: readonly string[];
  readonly warnings: readonly string[];
}

function placesFor(options: ImportOptions, cli: ReturnType<typeof cliEnv>): string[] {
  if (options.file) return [path.resolve(cli.cwd, options.file)];
  return importPlaces(options.from, {
    cwd: cli.cwd,
    home: cli.home,
    platform: process.platform,
    ...(cli.env.APPDATA ? { appData: cli.env.APPDATA } : {}),
    ...(cli.xdgConfigHome ? { xdgConfigHome: cli.xdgConfigHome } : {}),
  });
}

export async function mcpImportCommand(options: ImportOptions): Promise<number> {
  const cli = cliEnv(options);
  const places = placesFor(options, cli);
  const target = configPathFor(options.scope, cli);
  const { found, results, problems } = gatherImports(places, options.from, cli);
  if (found.length === 0 && results.length === 0) {
    process.stderr.write(
      `indusr: no ${options.from} MCP servers found (looked in ${[...new Set(places)].join(", ")})\n`,
    );
    return EXIT.failed;
  }
  let existing: string[];
  try {
    existing = listServerNames(target);
  } catch (error) {
    process.stderr.write(`indusr: ${(error as Error).message}\n`);
    return EXIT.failed;
  }
  const into: ImportTarget = { options, target, existing, env: cli.env, policy: loadManagedPolicy(cli.env) };
  for (const item of found) {
    const result = importOne(item, into);
    if (result === undefined) return EXIT.failed;
    results.push(result);
  }
  printImports(results, options, target);
  return problems > 0 || results.some((r) => r.action === "invalid" || r.action === "denied") ? EXIT.failed : EXIT.ok;
}

/** Every server the places hold (the most specific place wins a name), the rows that cannot be servers, unreadable files. */
function gatherImports(
  places: readonly string[],
  from: ImportOptions["from"],
  cli: ReturnType<typeof cliEnv>,
): { found: ImportedServer[]; results: ImportResult[]; problems: number } {
  const found: ImportedServer[] = [];
  const results: ImportResult[] = [];
  const seen = new Set<string>();
  let problems = 0;
  for (const file of places) {
    const read = readPeerFile(file, { cwd: cli.cwd, home: cli.home, dialect: DIALECT_OF[from] });
    if (read.error) {
      problems += 1;
      process.stderr.write(`error: ${read.error}\n`);
    }
    for (const bad of read.invalid) {
      if (seen.has(bad.name)) continue;
      seen.add(bad.name);
      results.push({
        name: bad.name,
        source: file,
        row: bad.at,
        action: "invalid",
        why: bad.why,
        notes: [],
        warnings: [],
      });
    }
    for (const server of read.servers) {
      if (seen.has(server.name)) continue; // the most specific place wins
      seen.add(server.name);
      found.push(server);
    }
  }
  return { found, results, problems };
}

/** Where imports go and what may be written there. */
interface ImportTarget {
  readonly options: ImportOptions;
  readonly target: string;
  readonly existing: string[];
  readonly env: NodeJS.ProcessEnv;
  readonly policy: ManagedPolicy | undefined;
}

/** Write one server into the target (unless a dry run); undefined when the file could not be written (said on stderr). */
function importOne(
  item: ImportedServer,
  { options, target, existing, env, policy }: ImportTarget,
): ImportResult | undefined {
  const base = { name: item.name, source: item.file, row: item.at, notes: item.notes };
  if (!SERVER_ID_PATTERN.test(item.name)) {
    const why = "the name must start with a letter and hold only letters, digits, _ or -";
    return { ...base, action: "invalid", why, warnings: [] };
  }
  const refused = policyRefusal(item.name, item.row, env, policy);
  if (refused !== undefined) return { ...base, action: "denied", why: refused, warnings: [] };
  const secrets = options.scope === "project" ? literalSecrets(item.row) : [];
  const warnings = secrets.map(
    (what) =>
      `${what} looks like a literal secret and would be written into ${target}, which is usually committed; write a \${VAR} reference there and set the variable (or import into the user file: --scope user)`,
  );
  for (const w of warnings) process.stderr.write(`warning: ${item.name}: ${w}\n`);
  const clash = existing.includes(item.name);
  if (clash && !options.force)
    return { ...base, action: "skipped", why: `already in ${target} (pass --force to replace)`, warnings };
  if (!options.dryRun) {
    try {
      addServerToFile(target, item.name, item.row, { replace: clash });
    } catch (error) {
      process.stderr.write(`indusr: ${(error as Error).message}\n`);
      return undefined;
    }
    existing.push(item.name);
  }
  const why = item.disabledBy ? `imported switched off: ${item.disabledBy}` : undefined;
  return { ...base, action: clash ? "replaced" : "added", ...(why ? { why } : {}), warnings };
}

function printImports(results: readonly ImportResult[], options: ImportOptions, target: string): void {
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify({ target, scope: options.scope, dryRun: options.dryRun === true, servers: results }, null, 2)}\n`,
    );
    return;
  }
  for (const r of results) {
    const action =
      options.dryRun && (r.action === "added" || r.action === "replaced") ? `would be ${r.action}` : r.action;
    const extra = [r.why, ...r.notes].filter(Boolean).join("; ");
    process.stdout.write(`${r.name}: ${action} (from ${r.source})${extra ? ` — ${extra}` : ""}\n`);
  }
  if (!options.dryRun) process.stdout.write(`Wrote ${target}\n`);
}
