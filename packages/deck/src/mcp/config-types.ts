/**
 * The shapes of MCP config discovery: where a server came from, what went
 * wrong (as a diagnostic kind to branch on), and what a load returns.
 */
import type { ServerConfig } from "@indus/contract";
import type { McpDialect } from "./dialect";
import type { InputDefinition } from "./peer-rows";
import type { EnvLookup } from "./placeholders";

export type McpConfigScope = "explicit" | "project" | "user" | "legacy";

/** What went wrong, for branching (never parse the message). */
export type McpDiagnosticKind =
  | "missing"
  | "unreadable"
  | "malformed"
  | "unrecognized"
  | "row"
  | "field"
  | "placeholder"
  | "shadowed"
  | "needs-approval";

export interface McpConfigDiagnostic {
  readonly kind: McpDiagnosticKind;
  readonly file: string;
  /** The row, as a path into the file: `servers[2]`, `mcpServers.github`. */
  readonly row?: string;
  readonly message: string;
  readonly severity: "error" | "warning";
  /** For `placeholder`: the placeholder as written, e.g. `${input:api-key}`. */
  readonly placeholder?: string;
}

/** Where one loaded server came from. */
export interface McpServerOrigin {
  readonly file: string;
  readonly row: string;
  readonly scope: McpConfigScope;
  readonly dialect: McpDialect;
  /** The row as written (in indus's format, placeholders not expanded), to show `${VAR}` rather than its value. */
  readonly written?: Readonly<Record<string, unknown>>;
}

/** A server from another tool's project file, waiting for the user's approval. */
export interface PendingApproval {
  readonly project: string;
  readonly file: string;
  readonly names: readonly string[];
}

export interface McpConfigLoad {
  /** Valid, enabled servers in precedence order; names unique (the first definition wins). */
  readonly servers: ServerConfig[];
  readonly diagnostics: McpConfigDiagnostic[];
  /** Server name → where it was defined. */
  readonly origins: ReadonlyMap<string, McpServerOrigin>;
  /** Rows switched off (`enabled: false`, `disabled: true`, a client's disable list). */
  readonly disabled: readonly ({ readonly name: string; readonly reason?: string } & McpServerOrigin)[];
  /** Every file that was read (present and parsed or not), in order. */
  readonly files: readonly { readonly file: string; readonly scope: McpConfigScope; readonly dialect: McpDialect }[];
  /** Every location that was looked at, present or not. */
  readonly searched: readonly string[];
  /** Other tools' project files whose servers wait for approval. */
  readonly pendingApproval: readonly PendingApproval[];
  /** `${input:id}` values a server needs before it can start (ask, then load again with `inputs`). */
  readonly pendingInputs: readonly (InputDefinition & { readonly file: string })[];
}

export interface McpLoadOptions {
  /** HOME, XDG_* and `${VAR}` values (`process.env` unless injected). */
  readonly env?: EnvLookup;
  /** The folder indus runs in: `${workspaceFolder}` and the key of per-project state. */
  readonly cwd?: string;
  /** Answers for `${input:id}` placeholders. */
  readonly inputs?: Readonly<Record<string, string>>;
  /** `skip`: start servers from other tools' project files without asking (explicit `--mcp` paths). */
  readonly approval?: "required" | "skip";
}

export interface SearchPath {
  readonly scope: McpConfigScope;
  readonly file: string;
  /** Another tool's file under the project: its servers start only once approved. */
  readonly foreign: boolean;
}

/** The file being read, and under which rules. */
export interface FileContext {
  readonly file: string;
  readonly scope: McpConfigScope;
  readonly project: string;
  readonly approved: boolean;
  readonly dialect?: McpDialect;
}

export interface RowContext extends FileContext {
  readonly dialect: McpDialect;
  readonly inputs: readonly InputDefinition[];
}
