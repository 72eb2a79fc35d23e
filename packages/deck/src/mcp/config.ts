/**
 * MCP config discovery. Reads indus's own files and every other client's
 * (Claude Desktop and Code, VS Code, Cursor, Gemini, Codex TOML, opencode,
 * Windsurf) into validated `ServerConfig`s. Each file is read in its client's
 * dialect, placeholders are expanded or the server is refused, a bad row is
 * skipped, and nothing ever throws: every problem comes back as a diagnostic
 * naming the file and the row.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseEnv } from "node:util";
import type { ServerConfig } from "@indus/contract";
import { parseServerConfig } from "@indus/contract";
import { parse as parseToml } from "smol-toml";
import { isProjectFileApproved } from "./approval";
import { type McpDialect, dialectOfFile } from "./dialect";
import { parseJsonc } from "./jsonc";
import { type InputDefinition, type Row, peerRowsOf } from "./peer-rows";
import { type EnvLookup, type PlaceholderContext, expandPlaceholders } from "./placeholders";
import { RowError, translateRow } from "./translate-row";

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

function homeOf(env: EnvLookup): string {
  return env.HOME ?? env.USERPROFILE ?? os.homedir();
}

/** The discovery locations, in precedence order. `env` supplies HOME and XDG_CONFIG_HOME. */
export function mcpConfigSearchPaths(cwd: string, env: EnvLookup = process.env): SearchPath[] {
  const home = homeOf(env);
  const xdg = env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME !== "" ? env.XDG_CONFIG_HOME : path.join(home, ".config");
  const project = path.resolve(cwd);
  const foreign = (rel: string): SearchPath => ({ scope: "project", file: path.join(project, rel), foreign: true });
  return [
    { scope: "project", file: path.join(project, ".indusvx", "mcp.json"), foreign: false },
    foreign(".mcp.json"),
    foreign(path.join(".vscode", "mcp.json")),
    foreign(path.join(".cursor", "mcp.json")),
    foreign("opencode.json"),
    foreign(path.join(".dispatch", "mcp.json")),
    { scope: "user", file: path.join(xdg, "indusvx", "mcp.json"), foreign: false },
    { scope: "legacy", file: path.join(home, ".indusvx", "agent", "mcp.json"), foreign: false },
    { scope: "legacy", file: path.join(home, ".indusvx", "agent", "mcp-servers.json"), foreign: false },
  ];
}

/**
 * An existing file is read on its own; a directory is treated as the cwd and
 * the search paths are merged in order. Never throws.
 */
export function loadMcpConfig(pathOrCwd: string, options: McpLoadOptions = {}): McpConfigLoad {
  const env = options.env ?? process.env;
  const target = path.resolve(pathOrCwd);
  const acc = new Accumulator(env, options.inputs ?? {});
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(target);
  } catch {
    stat = undefined;
  }
  if (stat?.isFile()) {
    const cwd = path.resolve(options.cwd ?? process.cwd());
    acc.searched.push(target);
    acc.readFile({ file: target, scope: "explicit", project: projectOfFile(target, cwd), approved: true });
  } else if (stat?.isDirectory()) {
    for (const place of mcpConfigSearchPaths(target, env)) {
      acc.searched.push(place.file);
      if (!fs.existsSync(place.file)) continue;
      const approved = !place.foreign || options.approval === "skip" || isProjectFileApproved(target, place.file, env);
      acc.readFile({ file: place.file, scope: place.scope, project: target, approved });
    }
  } else {
    acc.searched.push(target);
    acc.fileProblem(target, "missing", "no such file or directory");
  }
  return acc.result();
}

/** Parses one config text (already read) as if it were `file`. Never throws. */
export function parseMcpConfigText(
  text: string,
  file: string,
  options: McpLoadOptions & { scope?: McpConfigScope; dialect?: McpDialect } = {},
): McpConfigLoad {
  const env = options.env ?? process.env;
  const acc = new Accumulator(env, options.inputs ?? {});
  const resolved = path.resolve(file);
  acc.parseText(text, {
    file: resolved,
    scope: options.scope ?? "explicit",
    project: projectOfFile(resolved, path.resolve(options.cwd ?? process.cwd())),
    approved: true,
    ...(options.dialect ? { dialect: options.dialect } : {}),
  });
  return acc.result();
}

/** `<p>/.vscode/mcp.json` belongs to `<p>`; a file elsewhere belongs to the cwd. */
function projectOfFile(file: string, cwd: string): string {
  const parent = path.basename(path.dirname(file));
  if ([".vscode", ".cursor", ".indusvx", ".dispatch"].includes(parent)) return path.dirname(path.dirname(file));
  if ([".mcp.json", "opencode.json", "opencode.jsonc"].includes(path.basename(file))) return path.dirname(file);
  return cwd;
}

/** Parses a config file's text in its format (TOML for Codex, JSONC otherwise). */
export function parseConfigDocument(text: string, dialect: McpDialect): unknown {
  if (dialect === "codex") return parseToml(text);
  return parseJsonc(text);
}

// ------------------------------------------------------------------ files

interface FileContext {
  readonly file: string;
  readonly scope: McpConfigScope;
  readonly project: string;
  readonly approved: boolean;
  readonly dialect?: McpDialect;
}

interface RowContext extends FileContext {
  readonly dialect: McpDialect;
  readonly inputs: readonly InputDefinition[];
}

class Accumulator {
  readonly servers: ServerConfig[] = [];
  readonly diagnostics: McpConfigDiagnostic[] = [];
  readonly origins = new Map<string, McpServerOrigin>();
  readonly disabled: ({ name: string; reason?: string } & McpServerOrigin)[] = [];
  readonly files: { file: string; scope: McpConfigScope; dialect: McpDialect }[] = [];
  readonly searched: string[] = [];
  readonly pendingApproval: PendingApproval[] = [];
  readonly pendingInputs: (InputDefinition & { file: string })[] = [];

  constructor(
    private readonly env: EnvLookup,
    private readonly inputs: Readonly<Record<string, string>>,
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
    const found = peerRowsOf(doc as Row, dialect, ctx.file, ctx.project, home);
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
    const waiting: string[] = [];
    for (const row of found.rows) {
      const name = this.addRow(row.name, row.value, row.row, rowCtx, row.disabledBy);
      if (name !== undefined) waiting.push(name);
    }
    if (waiting.length > 0) {
      this.pendingApproval.push({ project: ctx.project, file: ctx.file, names: waiting });
      this.diagnostics.push({
        kind: "needs-approval",
        file: ctx.file,
        message: `${waiting.length === 1 ? "server" : "servers"} ${waiting.join(", ")} from another tool's project file ${waiting.length === 1 ? "is" : "are"} not started until you approve this file for ${ctx.project}`,
        severity: "warning",
      });
    }
  }

  /** Loads one row; returns its name when it waits for approval. */
  addRow(
    name: string | undefined,
    value: unknown,
    row: string,
    ctx: RowContext,
    disabledBy?: string,
  ): string | undefined {
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
    if (!ctx.approved) return name;
    const candidate = this.materialize(name, row_, ctx, row);
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

  /** Expands placeholders and reads `envFile`; refuses the server (undefined) when a value is missing. */
  private materialize(name: string, row: Record<string, unknown>, ctx: RowContext, rowPath: string) {
    const placeholders: PlaceholderContext = {
      env: this.env,
      workspace: ctx.project,
      home: homeOf(this.env),
      inputs: this.inputs,
    };
    const missing = new Set<string>();
    const expand = (s: string): string => {
      const result = expandPlaceholders(s, placeholders);
      for (const p of result.unresolved) missing.add(p);
      return result.value;
    };
    const expandMap = (m: unknown) =>
      Object.fromEntries(Object.entries((m ?? {}) as Record<string, string>).map(([k, v]) => [k, expand(v)]));
    const { enabled: _enabled, envFile, ...rest } = row;
    const out: Record<string, unknown> = { ...rest, id: name, transport: row.transport ?? "streamable-http" };
    const baseDir = ctx.scope === "explicit" ? path.dirname(ctx.file) : ctx.project;
    if (typeof row.command === "string") {
      out.transport = row.transport ?? "stdio";
      out.command = expand(row.command);
      out.args = ((row.args ?? []) as string[]).map(expand);
      let fromFile: Record<string, string> = {};
      if (typeof envFile === "string") {
        const envPath = path.resolve(ctx.project, expand(envFile));
        try {
          fromFile = parseEnv(fs.readFileSync(envPath, "utf8")) as Record<string, string>;
        } catch (error) {
          this.diagnostics.push({
            kind: "row",
            file: ctx.file,
            row: rowPath,
            message: `envFile ${envPath}: ${(error as Error).message}; server skipped`,
            severity: "error",
          });
          return undefined;
        }
      }
      out.env = { ...fromFile, ...expandMap(row.env) };
      if (typeof row.cwd === "string") {
        let dir = expand(row.cwd);
        if (dir === "~" || dir.startsWith("~/")) dir = path.join(homeOf(this.env), dir.slice(1));
        out.cwd = path.resolve(baseDir, dir);
      }
    } else {
      out.url = expand(String(row.url));
      out.headers = expandMap(row.headers);
      // `oauth.clientSecret` is written as a `${VAR}` reference and `oauth.privateKeyFile` is a path
      // (placeholders, `~`, relative to the config like `cwd`); the rest is validated by the schema as is.
      const oauth = row.oauth as Row | undefined;
      if (oauth && typeof oauth === "object") {
        const expanded: Record<string, unknown> = { ...oauth };
        if (typeof oauth.clientSecret === "string") expanded.clientSecret = expand(oauth.clientSecret);
        if (typeof oauth.privateKeyFile === "string") {
          let file = expand(oauth.privateKeyFile);
          if (file === "~" || file.startsWith("~/")) file = path.join(homeOf(this.env), file.slice(1));
          expanded.privateKeyFile = path.resolve(baseDir, file);
        }
        out.oauth = expanded;
      }
    }
    if (missing.size === 0) return out;
    for (const placeholder of missing) {
      const input = /^\$\{input:([^}]+)\}$/.exec(placeholder)?.[1];
      if (input !== undefined && !this.pendingInputs.some((p) => p.id === input)) {
        const def = ctx.inputs.find((i) => i.id === input);
        this.pendingInputs.push({ ...(def ?? { id: input }), file: ctx.file });
      }
      this.diagnostics.push({
        kind: "placeholder",
        file: ctx.file,
        row: rowPath,
        placeholder,
        message: `${describeMissing(placeholder)}; server "${name}" not started (a placeholder is never sent as a literal value)`,
        severity: "error",
      });
    }
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

function describeMissing(placeholder: string): string {
  const body = placeholder.startsWith("${") ? placeholder.slice(2, -1) : placeholder;
  if (body.startsWith("input:"))
    return `${placeholder} needs a value typed in on a terminal (an interactive run asks once)`;
  if (/^(env:)?[A-Za-z_][A-Za-z0-9_]*$/.test(body))
    return `${placeholder}: environment variable ${body.replace(/^env:/, "")} is not set`;
  return `${placeholder} is not a placeholder indus can expand`;
}
