/**
 * One config row made concrete: placeholders expanded (`${VAR}`,
 * `${workspaceFolder}`, `${input:id}`, ...), `envFile` read, `cwd` and key
 * files resolved against the config. A placeholder that cannot be expanded
 * refuses the server: a placeholder is never sent as a literal value.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseEnv } from "node:util";
import type { McpConfigDiagnostic, RowContext } from "./config-types";
import type { InputDefinition, Row } from "./peer-rows";
import { type EnvLookup, type PlaceholderContext, expandPlaceholders } from "./placeholders";

export function homeOf(env: EnvLookup): string {
  return env.HOME ?? env.USERPROFILE ?? os.homedir();
}

/** Where a row's problems and the `${input:…}` values it waits for go. */
export interface MaterializeSink {
  readonly env: EnvLookup;
  readonly inputs: Readonly<Record<string, string>>;
  readonly diagnostics: McpConfigDiagnostic[];
  readonly pendingInputs: (InputDefinition & { file: string })[];
}

/** The row being made concrete, and where. */
export interface RowAt {
  readonly name: string;
  readonly row: Record<string, unknown>;
  readonly rowPath: string;
  readonly ctx: RowContext;
}

/** The expansion of one row's strings, noting every placeholder it could not expand. */
interface Expander {
  readonly missing: Set<string>;
  one(s: string): string;
  map(m: unknown): Record<string, string>;
  /** A path: placeholders, then `~`, then relative to `baseDir`. */
  path(s: string): string;
}

/** Expands placeholders and reads `envFile`; refuses the server (undefined) when a value is missing. */
export function materialize(at: RowAt, sink: MaterializeSink): Record<string, unknown> | undefined {
  const { name, row } = at;
  const expand = expanderFor(at, sink);
  const { enabled: _enabled, envFile: _envFile, ...rest } = row;
  const out: Record<string, unknown> = { ...rest, id: name, transport: row.transport ?? "streamable-http" };
  if (typeof row.command === "string") {
    out.transport = row.transport ?? "stdio";
    out.command = expand.one(row.command);
    out.args = ((row.args ?? []) as string[]).map((arg) => expand.one(arg));
    const env = envFileOf(at, expand, sink);
    if (env === undefined) return undefined;
    out.env = { ...env, ...expand.map(row.env) };
    if (typeof row.cwd === "string") out.cwd = expand.path(row.cwd);
  } else {
    out.url = expand.one(String(row.url));
    out.headers = expand.map(row.headers);
    const oauth = oauthOf(row.oauth, expand);
    if (oauth) out.oauth = oauth;
  }
  if (expand.missing.size === 0) return out;
  for (const placeholder of expand.missing) refuse(at, placeholder, sink);
  return undefined;
}

function expanderFor({ ctx }: RowAt, sink: MaterializeSink): Expander {
  const placeholders: PlaceholderContext = {
    env: sink.env,
    workspace: ctx.project,
    home: homeOf(sink.env),
    inputs: sink.inputs,
  };
  const baseDir = ctx.scope === "explicit" ? path.dirname(ctx.file) : ctx.project;
  const missing = new Set<string>();
  const one = (s: string): string => {
    const result = expandPlaceholders(s, placeholders);
    for (const p of result.unresolved) missing.add(p);
    return result.value;
  };
  return {
    missing,
    one,
    map: (m) => Object.fromEntries(Object.entries((m ?? {}) as Record<string, string>).map(([k, v]) => [k, one(v)])),
    path: (s) => {
      let file = one(s);
      if (file === "~" || file.startsWith("~/")) file = path.join(homeOf(sink.env), file.slice(1));
      return path.resolve(baseDir, file);
    },
  };
}

/** The variables of a stdio row's `envFile` (none without one); undefined when it cannot be read. */
function envFileOf(at: RowAt, expand: Expander, sink: MaterializeSink): Record<string, string> | undefined {
  const envFile = at.row.envFile;
  if (typeof envFile !== "string") return {};
  const envPath = path.resolve(at.ctx.project, expand.one(envFile));
  try {
    return parseEnv(fs.readFileSync(envPath, "utf8")) as Record<string, string>;
  } catch (error) {
    sink.diagnostics.push({
      kind: "row",
      file: at.ctx.file,
      row: at.rowPath,
      message: `envFile ${envPath}: ${(error as Error).message}; server skipped`,
      severity: "error",
    });
    return undefined;
  }
}

/**
 * `oauth.clientSecret` is written as a `${VAR}` reference and
 * `oauth.privateKeyFile` is a path (placeholders, `~`, relative to the config
 * like `cwd`); the rest is validated by the schema as is.
 */
function oauthOf(value: unknown, expand: Expander): Record<string, unknown> | undefined {
  const oauth = value as Row | undefined;
  if (!oauth || typeof oauth !== "object") return undefined;
  const expanded: Record<string, unknown> = { ...oauth };
  if (typeof oauth.clientSecret === "string") expanded.clientSecret = expand.one(oauth.clientSecret);
  if (typeof oauth.privateKeyFile === "string") expanded.privateKeyFile = expand.path(oauth.privateKeyFile);
  return expanded;
}

/** Say why the server does not start, and remember an `${input:…}` to ask for. */
function refuse({ name, rowPath, ctx }: RowAt, placeholder: string, sink: MaterializeSink): void {
  const input = /^\$\{input:([^}]+)\}$/.exec(placeholder)?.[1];
  if (input !== undefined && !sink.pendingInputs.some((p) => p.id === input)) {
    const def = ctx.inputs.find((i) => i.id === input);
    sink.pendingInputs.push({ ...(def ?? { id: input }), file: ctx.file });
  }
  sink.diagnostics.push({
    kind: "placeholder",
    file: ctx.file,
    row: rowPath,
    placeholder,
    message: `${describeMissing(placeholder)}; server "${name}" not started (a placeholder is never sent as a literal value)`,
    severity: "error",
  });
}

function describeMissing(placeholder: string): string {
  const body = placeholder.startsWith("${") ? placeholder.slice(2, -1) : placeholder;
  if (body.startsWith("input:"))
    return `${placeholder} needs a value typed in on a terminal (an interactive run asks once)`;
  if (/^(env:)?[A-Za-z_][A-Za-z0-9_]*$/.test(body))
    return `${placeholder}: environment variable ${body.replace(/^env:/, "")} is not set`;
  return `${placeholder} is not a placeholder indus can expand`;
}
