/**
 * Placeholders in config strings. Every client has its own syntax; indus
 * reads them all, rewrites them into one (`${VAR}`, `${VAR:-default}`,
 * `${input:id}`, `${workspaceFolder}`, `${userHome}`) and then expands that.
 * Whatever cannot be expanded is reported, and the server using it is refused:
 * a placeholder is never sent to a server as a literal value.
 */
import path from "node:path";
import type { McpDialect } from "./dialect";

export type EnvLookup = Readonly<Record<string, string | undefined>>;

/** What a placeholder can expand to. */
export interface PlaceholderContext {
  readonly env: EnvLookup;
  /** `${workspaceFolder}`: the project the config belongs to. */
  readonly workspace: string;
  /** `${userHome}`. */
  readonly home: string;
  /** `${input:id}` answers given so far. */
  readonly inputs: Readonly<Record<string, string>>;
}

/** Where in a row a string sits; bare `$VAR` is only a placeholder in some places. */
export type PlaceholderField = "command" | "args" | "env" | "cwd" | "url" | "headers" | "envFile";

const OPENCODE_ENV = /(?<!\$)\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;
const BRACED_ENV = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;
const BARE_VAR = /(?<![\\$])\$([A-Za-z_][A-Za-z0-9_]*)/g;

/**
 * Rewrites one dialect's placeholders into indus syntax. Gemini expands bare
 * `$VAR` everywhere; elsewhere it is only taken as a placeholder in URLs and
 * headers, where a literal `$NAME` is never what a user means.
 */
export function toIndusPlaceholders(value: string, dialect: McpDialect, field: PlaceholderField): string {
  let out = value.replace(OPENCODE_ENV, "${$1}").replace(BRACED_ENV, "${$1}");
  if (dialect === "gemini" || field === "url" || field === "headers") out = out.replace(BARE_VAR, "${$1}");
  return out;
}

const PLACEHOLDER = /\$\{([^}]*)\}/g;
const ENV_REF = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s;
const FOREIGN_LEFTOVER = /(?<!\$)\{(?:env|file):[^}]*\}/;

export interface Expansion {
  readonly value: string;
  /** Placeholders that had no value, as written (`${input:api-key}`, `${TOKEN}`). */
  readonly unresolved: readonly string[];
}

function expandOne(body: string, ctx: PlaceholderContext): string | undefined {
  if (body === "workspaceFolder") return ctx.workspace;
  if (body === "workspaceFolderBasename") return path.basename(ctx.workspace);
  if (body === "userHome") return ctx.home;
  if (body === "pathSeparator" || body === "/") return path.sep;
  if (body.startsWith("input:")) return ctx.inputs[body.slice("input:".length)];
  const ref = ENV_REF.exec(body.startsWith("env:") ? body.slice(4) : body);
  if (!ref) return undefined;
  const [, name, fallback] = ref as unknown as [string, string, string | undefined];
  const found = ctx.env[name];
  if (found !== undefined && found !== "") return found;
  if (fallback !== undefined) return fallback;
  return found;
}

/** Expands indus placeholders; what cannot be expanded is listed, never guessed. */
export function expandPlaceholders(value: string, ctx: PlaceholderContext): Expansion {
  const unresolved: string[] = [];
  const expanded = value.replace(PLACEHOLDER, (whole, body: string) => {
    const found = expandOne(body, ctx);
    if (found === undefined) unresolved.push(whole);
    return found ?? "";
  });
  const leftover = FOREIGN_LEFTOVER.exec(expanded);
  if (leftover) unresolved.push(leftover[0]);
  return { value: expanded, unresolved };
}

/** The `${input:id}` ids a string refers to. */
export function inputIdsIn(value: string): string[] {
  return [...value.matchAll(/\$\{input:([^}]+)\}/g)].map((m) => m[1] as string);
}
