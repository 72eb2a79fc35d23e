/**
 * The one declarative flag table. Parsing, validation and `--help` are all
 * derived from these rows; commander does the parsing underneath.
 */
import { InvalidArgumentError, Option, type Command } from "commander";

/** `optional`: a value may follow (`--resume [id]`); alone, the flag is `true`. */
export type FlagKind = "boolean" | "string" | "number" | "list" | "choice" | "optional";
export type FlagGroup = "tools" | "model" | "session" | "output" | "serve" | "config";

export interface FlagSpec {
  /** Long name without dashes, e.g. `mcp`. */
  readonly name: string;
  /** At most one single-letter alias (`p` for `-p`). */
  readonly aliases: readonly string[];
  readonly kind: FlagKind;
  readonly group: FlagGroup;
  readonly description: string;
  /** For `choice` flags. */
  readonly choices?: readonly string[];
  /** Placeholder shown in help for valued flags. */
  readonly value?: string;
  readonly defaultValue?: string | number | boolean;
}

const GROUP_HEADINGS: Record<FlagGroup, string> = {
  tools: "Tools and MCP:",
  model: "Model:",
  session: "Session:",
  output: "Output:",
  serve: "Serving:",
  config: "Config:",
};

export const FLAG_TABLE: readonly FlagSpec[] = [
  {
    name: "mcp",
    aliases: [],
    kind: "list",
    group: "tools",
    value: "paths",
    description: "MCP config file or folder to attach (comma-separated or repeated); default: discover under the cwd",
  },
  {
    name: "tools",
    aliases: [],
    kind: "list",
    group: "tools",
    value: "names",
    description:
      "Only these built-in tools (comma-separated or repeated; case, _ and - ignored); MCP tools still attach",
  },
  {
    name: "no-tools",
    aliases: [],
    kind: "boolean",
    group: "tools",
    description: "No built-in tools and no MCP servers at all",
  },
  {
    name: "profile",
    aliases: [],
    kind: "choice",
    group: "tools",
    value: "profile",
    choices: ["authoring", "survey", "all"],
    description:
      "Capability profile: authoring (read-only built-ins), survey (all built-ins), all (built-ins and app cards)",
  },
  {
    name: "cwd",
    aliases: ["C"],
    kind: "string",
    group: "session",
    value: "dir",
    description: "Work in this directory instead of the current one",
  },
  {
    name: "log-dir",
    aliases: [],
    kind: "string",
    group: "session",
    value: "dir",
    description: "Where MCP server stderr logs go (default: the session's log directory)",
  },
  {
    name: "session-dir",
    aliases: [],
    kind: "string",
    group: "session",
    value: "dir",
    description: "Where transcripts, plans and logs are kept (default: ~/.indusvx/sessions)",
  },
  {
    name: "print",
    aliases: ["p"],
    kind: "string",
    group: "session",
    value: "prompt",
    description: "Run one task non-interactively and print the result",
  },
  {
    name: "mcp-tool-budget",
    aliases: [],
    kind: "number",
    group: "tools",
    value: "tokens",
    description:
      "Defer MCP tools behind saas-action discover/execute when their definitions exceed this many tokens (default: 10% of the context window)",
  },
  {
    name: "subagent-model",
    aliases: [],
    kind: "string",
    group: "model",
    value: "model",
    description: "Model for task sub-agents (same provider; default: the session's model)",
  },
  {
    name: "max-turns",
    aliases: [],
    kind: "number",
    group: "session",
    value: "n",
    description: "Stop after this many model turns",
  },
  {
    name: "allow",
    aliases: [],
    kind: "list",
    group: "session",
    value: "patterns",
    description: "Let mutating tools matching these globs run without asking (e.g. bash,everything__*)",
  },
  {
    name: "yes",
    aliases: ["y"],
    kind: "boolean",
    group: "session",
    description:
      "Let every tool run without asking; in -p runs also answer a server's form with its defaults when every required field has one",
  },
  {
    name: "continue",
    aliases: ["c"],
    kind: "boolean",
    group: "session",
    description: "Continue the latest conversation started in this folder (its messages and tool results)",
  },
  {
    name: "resume",
    aliases: ["r"],
    kind: "optional",
    group: "session",
    value: "id",
    description:
      "Resume a conversation by its session id; without one, pick from this folder's sessions (on a terminal)",
  },
  {
    name: "add-dir",
    aliases: [],
    kind: "list",
    group: "session",
    value: "dirs",
    description:
      "More folders the session works in, besides the cwd (comma-separated or repeated); MCP servers get them as roots",
  },
  {
    name: "allow-sampling",
    aliases: [],
    kind: "list",
    group: "session",
    value: "servers",
    description:
      "Let these MCP servers (ids or globs) ask the session's model for completions without asking you (-p declines otherwise)",
  },
  {
    name: "apps",
    aliases: [],
    kind: "choice",
    group: "session",
    value: "mode",
    choices: ["text", "browser"],
    description:
      "MCP Apps: text (default) shows a tool's text and /app opens its view; browser opens each view at once, on a local page on 127.0.0.1",
  },
  {
    name: "provider",
    aliases: [],
    kind: "choice",
    group: "model",
    value: "name",
    choices: ["openai", "anthropic"],
    description: "Model API: openai (any OpenAI-compatible server) or anthropic",
  },
  {
    name: "model",
    aliases: ["m"],
    kind: "string",
    group: "model",
    value: "id",
    description: "Model id, e.g. gpt-4.1-mini, claude-sonnet-4-5, qwen3:8b",
  },
  {
    name: "base-url",
    aliases: [],
    kind: "string",
    group: "model",
    value: "url",
    description: "API base URL (Ollama: http://127.0.0.1:11434/v1)",
  },
  {
    name: "output-format",
    aliases: [],
    kind: "choice",
    group: "output",
    value: "format",
    choices: ["text", "json", "stream-json"],
    description: "How -p prints: text, one json result, or stream-json events",
  },
  { name: "json", aliases: [], kind: "boolean", group: "output", description: "Machine-readable output" },
];

export function findFlag(name: string): FlagSpec {
  const spec = FLAG_TABLE.find((row) => row.name === name);
  if (!spec) throw new Error(`no flag "${name}" in the flag table`);
  return spec;
}

/** `--mcp a,b --mcp c` and `--mcp a --mcp b,c` both give `[a, b, c]`. */
export function collectList(value: string, previous: string[] | undefined): string[] {
  const items = value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
  return [...(previous ?? []), ...items];
}

function parseCount(flag: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1)
      throw new InvalidArgumentError(`--${flag} takes a whole number of at least 1, not "${value}"`);
    return n;
  };
}

/** A commander `Option` for one row. */
export function optionFor(spec: FlagSpec): Option {
  // Commander options take one short alias; the table test keeps rows to that.
  const short = spec.aliases[0];
  const valuePart =
    spec.kind === "boolean"
      ? ""
      : spec.kind === "optional"
        ? ` [${spec.value ?? "value"}]`
        : ` <${spec.value ?? "value"}>`;
  const flags = `${short ? `-${short}, ` : ""}--${spec.name}${valuePart}`;
  const option = new Option(flags, spec.description).helpGroup(GROUP_HEADINGS[spec.group]);
  if (spec.kind === "list") option.argParser(collectList);
  if (spec.kind === "number") option.argParser(parseCount(spec.name));
  if (spec.kind === "choice" && spec.choices) option.choices([...spec.choices]);
  if (spec.defaultValue !== undefined) option.default(spec.defaultValue);
  return option;
}

/** Add the named rows of the table to a command. */
export function withFlags(command: Command, names: readonly string[]): Command {
  for (const name of names) command.addOption(optionFor(findFlag(name)));
  return command;
}
