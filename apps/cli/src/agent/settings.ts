/**
 * Persisted agent defaults: `~/.indusvx/settings.json` (user) and
 * `<cwd>/.indusvx/settings.json` (project), JSON with comments allowed. The
 * project file may choose a provider and model but cannot redirect the API
 * key to another host, name another key variable, or grant tool permissions:
 * a cloned repository must not be able to leak a key or approve `bash`.
 */
import fs from "node:fs";
import path from "node:path";
import { parse, printParseErrorCode, type ParseError } from "jsonc-parser";

export interface AgentSettings {
  readonly provider?: "openai" | "anthropic";
  readonly model?: string;
  readonly baseUrl?: string;
  /** The environment variable holding the key, e.g. `OPENROUTER_API_KEY`. */
  readonly apiKeyEnv?: string;
  readonly maxTurns?: number;
  readonly maxOutputTokens?: number;
  readonly maxRetries?: number;
  readonly allow?: readonly string[];
  /** Tool results longer than this are capped and spilled to a file. */
  readonly toolResultMaxChars?: number;
  /** The model's context window in tokens (sets the default MCP tool budget). */
  readonly contextWindow?: number;
  /** `websearch` backends (user file only): a SearXNG URL, or a Brave Search or Tavily API key. */
  readonly searxngUrl?: string;
  readonly braveApiKey?: string;
  readonly tavilyApiKey?: string;
  /** Composio's actions behind `saas-action` (user file only). */
  readonly composioApiKey?: string;
}

/** Keys only the user's own settings file may set. */
const USER_ONLY: readonly (keyof AgentSettings)[] = [
  "baseUrl",
  "apiKeyEnv",
  "allow",
  "searxngUrl",
  "braveApiKey",
  "tavilyApiKey",
  "composioApiKey",
];

export interface LoadedSettings {
  readonly settings: AgentSettings;
  readonly warnings: readonly string[];
  readonly files: readonly string[];
}

export function settingsFiles(home: string, cwd: string): { readonly user: string; readonly project: string } {
  return { user: path.join(home, ".indusvx", "settings.json"), project: path.join(cwd, ".indusvx", "settings.json") };
}

const positiveInt = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isInteger(value) && value > 0 ? value : undefined;
const nonEmpty = (value: unknown): string | undefined =>
  typeof value === "string" && value.trim().length > 0 ? value.trim() : undefined;

/** A known key's check: the value to keep (undefined: ignored), and what was expected. */
interface Check {
  readonly keep: (value: unknown) => unknown;
  readonly expected: string;
}

const TEXT: Check = { keep: nonEmpty, expected: "expected a non-empty string" };
const COUNT: Check = { keep: positiveInt, expected: "expected a whole number of at least 1" };

const CHECKS: Readonly<Record<string, Check>> = {
  provider: {
    keep: (value) => (value === "openai" || value === "anthropic" ? value : undefined),
    expected: 'expected "openai" or "anthropic"',
  },
  model: TEXT,
  baseUrl: TEXT,
  apiKeyEnv: TEXT,
  searxngUrl: TEXT,
  braveApiKey: TEXT,
  tavilyApiKey: TEXT,
  composioApiKey: TEXT,
  maxTurns: COUNT,
  maxOutputTokens: COUNT,
  toolResultMaxChars: COUNT,
  contextWindow: COUNT,
  maxRetries: {
    keep: (value) => (typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined),
    expected: "expected a whole number of at least 0",
  },
  allow: {
    keep: (value) => (Array.isArray(value) && value.every((item) => typeof item === "string") ? value : undefined),
    expected: "expected a list of tool-name patterns",
  },
};

function validate(raw: Record<string, unknown>, file: string, warnings: string[]): AgentSettings {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    // Other tools share the folder; unknown keys are theirs, not errors.
    const check = Object.hasOwn(CHECKS, key) ? CHECKS[key] : undefined;
    if (check === undefined) continue;
    const kept = check.keep(value);
    if (kept !== undefined) out[key] = kept;
    else warnings.push(`${file}: ignoring "${key}": ${check.expected}`);
  }
  return out;
}

function readOne(file: string, warnings: string[]): AgentSettings | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT")
      warnings.push(`${file}: cannot read (${(error as Error).message}); ignored`);
    return undefined;
  }
  const errors: ParseError[] = [];
  const root: unknown = parse(text, errors, { allowTrailingComma: true });
  if (errors.length > 0) {
    const line = text.slice(0, errors[0]!.offset).split("\n").length;
    warnings.push(`${file}: not valid JSON (${printParseErrorCode(errors[0]!.error)} at line ${line}); ignored`);
    return undefined;
  }
  if (root === null || typeof root !== "object" || Array.isArray(root)) {
    warnings.push(`${file}: must hold a JSON object; ignored`);
    return undefined;
  }
  return validate(root as Record<string, unknown>, file, warnings);
}

/** User settings, overlaid by the project's (minus the user-only keys). */
export function loadSettings(home: string, cwd: string): LoadedSettings {
  const warnings: string[] = [];
  const files = settingsFiles(home, cwd);
  const user = readOne(files.user, warnings) ?? {};
  const projectRaw =
    path.resolve(files.project) === path.resolve(files.user) ? undefined : readOne(files.project, warnings);
  const project: Record<string, unknown> = { ...(projectRaw ?? {}) };
  for (const key of USER_ONLY) {
    if (project[key] !== undefined) {
      warnings.push(
        `${files.project}: ignoring "${key}": only ${files.user} may set it (a project must not redirect your key or approve tools)`,
      );
      delete project[key];
    }
  }
  const loaded = [files.user, files.project].filter((file) => fs.existsSync(file));
  return { settings: { ...user, ...project }, warnings, files: loaded };
}
