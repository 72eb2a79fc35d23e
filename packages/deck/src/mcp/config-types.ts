/**
 * The shapes of MCP config discovery: where a server came from, what went
 * wrong (as a diagnostic kind to branch on), and what a load returns.
 */
import type { JsonObject, ServerConfig } from "@indus/contract";
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
  | "needs-approval"
  | "denied";

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

/** One approved row: the digest it was approved at, and the row as shown then (secret values as digests). */
export interface ApprovedRow {
  readonly digest: string;
  readonly row: JsonObject;
}

/** The approved rows of one file, by server name. */
export type ApprovedRows = Readonly<Record<string, ApprovedRow>>;

/**
 * One row of another tool's project file waiting for the user's approval:
 * `new` (never approved) or `changed` since it was approved, with what to
 * show before asking. Approving records `digest`, so a row that changes
 * again after it was shown is asked again.
 */
export interface PendingRow {
  readonly name: string;
  readonly change: "new" | "changed";
  /** For `changed`: the fields that differ (`command`, `args`, `env`, `url`, ...). */
  readonly fields: readonly string[];
  /** For people: `command: "node" → "bash"`, `env.TOKEN: changed`; for `new`, the row itself. */
  readonly difference: readonly string[];
  readonly digest: string;
  /** The row as approval records it (literal secret values as digests). */
  readonly shown: JsonObject;
}

/** The servers of one of another tool's project files that wait for the user's approval. */
export interface PendingApproval {
  readonly project: string;
  readonly file: string;
  readonly names: readonly string[];
  /** Each waiting row, with what changed. */
  readonly rows: readonly PendingRow[];
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
  /** The rows approved for this file (another tool's project file); absent: every row may start. */
  readonly approvals?: ApprovedRows;
  readonly dialect?: McpDialect;
}

export interface RowContext extends FileContext {
  readonly dialect: McpDialect;
  readonly inputs: readonly InputDefinition[];
}
