/**
 * Reading config files into servers: each file in its client's dialect, each
 * row translated, made concrete (`materialize.ts`) and validated; a bad row is
 * skipped with a diagnostic naming the file and the row, and nothing throws.
 */
import fs from "node:fs";
import type { ServerConfig } from "@indus/contract";
import { parseServerConfig } from "@indus/contract";
import { parse as parseToml } from "smol-toml";
import type {
  FileContext,
  McpConfigDiagnostic,
  McpConfigLoad,
  McpConfigScope,
  McpDiagnosticKind,
  McpServerOrigin,
  ApprovedRows,
  PendingApproval,
  PendingRow,
  RowContext,
} from "./config-types";
import { type McpDialect, dialectOfFile } from "./dialect";
import { parseJsonc } from "./jsonc";
import { homeOf, materialize } from "./materialize";
import { type InputDefinition, type PeerRow, type Row, peerRowsOf } from "./peer-rows";
import type { EnvLookup } from "./placeholders";
import { RowError, translateRow } from "./translate-row";
import { rowDifference, rowDigest, shownRow } from "./row-approval";

/** The row waiting for approval, or undefined when it is approved as it stands. */
function pendingRow(name: string, row: Record<string, unknown>, approvals: ApprovedRows): PendingRow | undefined {
  const digest = rowDigest(row);
  const approved = approvals[name];
  if (approved?.digest === digest) return undefined;
  const shown = shownRow(row);
  if (approved === undefined) {
    const difference = Object.entries(shown).map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
    return { name, change: "new", fields: [], difference, digest, shown };
  }
  const { fields, lines } = rowDifference(approved.row, shown);
  return { name, change: "changed", fields, difference: lines, digest, shown };
}

/** Parses a config file's text in its format (TOML for Codex, JSONC otherwise). */
export function parseConfigDocument(text: string, dialect: McpDialect): unknown {
  if (dialect === "codex") return parseToml(text);
  return parseJsonc(text);
}

/** Collects what the files read say: servers, diagnostics, origins, what waits for approval or input. */
export class ConfigReader {
  readonly servers: ServerConfig[] = [];
  readonly diagnostics: McpConfigDiagnostic[] = [];
  readonly origins = new Map<string, McpServerOrigin>();
  readonly disabled: ({ name: string; reason?: string } & McpServerOrigin)[] = [];
  readonly files: { file: string; scope: McpConfigScope; dialect: McpDialect }[] = [];
  readonly searched: string[] = [];
  readonly pendingApproval: PendingApproval[] = [];
  readonly pendingInputs: (InputDefinition & { file: string })[] = [];

  constructor(
    readonly env: EnvLookup,
    readonly inputs: Readonly<Record<string, string>>,
  ) {}

  fileProblem(file: string, kind: McpDiagnosticKind, message: string, severity: "error" | "warning" = "error"): void {
    this.diagnostics.push({ kind, file, message, severity });
  }

  readFile(ctx: FileContext): void {
    let text: string;
    try {
      text = fs.readFileSync(ctx.file, "utf8");
    } catch (error) {
      this.files.push({ file: ctx.file, scope: ctx.scope, dialect: dialectOfFile(ctx.file) });
      this.fileProblem(ctx.file, "unreadable", `cannot read: ${(error as Error).message}`);
      return;
    }
    this.parseText(text, ctx);
  }

  parseText(text: string, ctx: FileContext): void {
    const dialect = ctx.dialect ?? dialectOfFile(ctx.file);
    this.files.push({ file: ctx.file, scope: ctx.scope, dialect });
    let doc: unknown;
    try {
      doc = parseConfigDocument(text, dialect);
    } catch (e) {
      const format = dialect === "codex" ? "TOML" : "JSON";
      this.fileProblem(
        ctx.file,
        "malformed",
        `malformed ${format}, nothing loaded from this file: ${(e as Error).message}`,
      );
      return;
    }
    if (typeof doc !== "object" || doc === null || Array.isArray(doc)) {
      this.fileProblem(
        ctx.file,
        "unrecognized",
        "must be an object with a servers (or mcpServers) key; nothing loaded",
      );
      return;
    }
    const home = homeOf(this.env);
    const found = peerRowsOf(doc as Row, dialect, { file: ctx.file, project: ctx.project, home });
    for (const problem of found.problems) this.fileProblem(ctx.file, "unrecognized", problem);
    if (found.empty) {
      const keys =
        dialect === "codex"
          ? "[mcp_servers] table"
          : dialect === "opencode"
            ? '"mcp" key'
            : "servers or mcpServers key";
      this.fileProblem(
        ctx.file,
        "unrecognized",
        `found no ${keys}; nothing to load`,
        ctx.scope === "explicit" ? "error" : "warning",
      );
      return;
    }
    const rowCtx: RowContext = { ...ctx, dialect, inputs: found.inputs };
    const waiting: PendingRow[] = [];
    for (const row of found.rows) {
      const pending = this.addRow(row, rowCtx);
      if (pending !== undefined) waiting.push(pending);
    }
    if (waiting.length > 0) this.waitForApproval(ctx, waiting);
  }

  /** Rows of another tool's project file that are new or changed since approved: named, with what changed. */
  private waitForApproval(ctx: FileContext, waiting: readonly PendingRow[]): void {
    const names = waiting.map((row) => row.name);
    this.pendingApproval.push({ project: ctx.project, file: ctx.file, names, rows: waiting });
    const described = waiting.map((row) =>
      row.change === "new"
        ? `${row.name} (new)`
        : `${row.name} (changed since you approved it: ${row.fields.join(", ")})`,
    );
    this.diagnostics.push({
      kind: "needs-approval",
      file: ctx.file,
      message: `${names.length === 1 ? "server" : "servers"} ${described.join(", ")} from another tool's project file ${names.length === 1 ? "is" : "are"} not started until you approve ${names.length === 1 ? "it" : "them"} for ${ctx.project}`,
      severity: "warning",
    });
  }

  /** Loads one row; returns it when it waits for approval. */
  addRow({ name, value, row, disabledBy }: PeerRow, ctx: RowContext): PendingRow | undefined {
    const { file } = ctx;
    const skip = (message: string): undefined => {
      this.diagnostics.push({ kind: "row", file, row, message: `${message}; server skipped`, severity: "error" });
      return undefined;
    };
    if (typeof value !== "object" || value === null || Array.isArray(value)) return skip("must be an object");
    if (name === undefined || name.trim() === "") return skip('needs a "name"');
    let row_: Record<string, unknown>;
    try {
      row_ = translateRow(ctx.dialect, value as Row, {
        warn: (message) => this.diagnostics.push({ kind: "field", file, row, message, severity: "warning" }),
        note: () => undefined,
      });
    } catch (e) {
      if (e instanceof RowError) return skip(e.message);
      throw e;
    }
    const origin: McpServerOrigin = { file, row, scope: ctx.scope, dialect: ctx.dialect };
    if (row_.enabled === false || disabledBy !== undefined) {
      this.disabled.push({ name, ...origin, ...(disabledBy ? { reason: disabledBy } : {}) });
      return undefined;
    }
    const pending = ctx.approvals === undefined ? undefined : pendingRow(name, row_, ctx.approvals);
    if (pending !== undefined) return pending;
    const candidate = materialize({ name, row: row_, rowPath: row, ctx }, this);
    if (candidate === undefined) return undefined;
    const parsed = parseServerConfig(candidate);
    if (!parsed.ok) {
      return skip(
        parsed.issues.map((issue) => `${issue.path === "id" ? "name" : issue.path}: ${issue.message}`).join("; "),
      );
    }
    const earlier = this.origins.get(parsed.value.id);
    if (earlier) {
      this.diagnostics.push({
        kind: "shadowed",
        file,
        row,
        message: `server "${parsed.value.id}" is shadowed by ${earlier.file} (${earlier.row}), which defines it first; this definition is ignored`,
        severity: "warning",
      });
      return undefined;
    }
    this.servers.push(parsed.value);
    this.origins.set(parsed.value.id, { ...origin, written: row_ });
    return undefined;
  }

  result(): McpConfigLoad {
    return {
      servers: this.servers,
      diagnostics: this.diagnostics,
      origins: this.origins,
      disabled: this.disabled,
      files: this.files,
      searched: this.searched,
      pendingApproval: this.pendingApproval,
      pendingInputs: this.pendingInputs,
    };
  }
}
