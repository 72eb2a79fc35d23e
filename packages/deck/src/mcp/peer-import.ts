/**
 * Another client's file as indus rows, for `mcp import`: each row translated
 * into indus's own format with its placeholders kept as references (never
 * expanded into secrets). `${input:id}` has no meaning outside VS Code, so it
 * becomes an environment variable reference the user sets.
 */
import fs from "node:fs";
import path from "node:path";
import { parseConfigDocument } from "./config-reader";
import { type McpDialect, dialectOfFile } from "./dialect";
import { type Row, peerRowsOf } from "./peer-rows";
import { RowError, translateRow } from "./translate-row";

export interface ImportedServer {
  readonly name: string;
  /** The row to write, in indus's format. */
  readonly row: Record<string, unknown>;
  readonly file: string;
  /** Where the row sat in its file. */
  readonly at: string;
  /** Set when the client had switched the server off (it is imported switched off). */
  readonly disabledBy?: string;
  /** What changed or was dropped on the way. */
  readonly notes: readonly string[];
}

export interface PeerFileRead {
  readonly servers: ImportedServer[];
  /** Rows that could not be translated, with why. */
  readonly invalid: readonly { readonly name: string; readonly at: string; readonly why: string }[];
  /** Set when the file could not be read or parsed (a missing file is not an error: no servers). */
  readonly error?: string;
}

function envNameFor(input: string): string {
  const name = input
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toUpperCase();
  return /^[A-Za-z_]/.test(name) ? name : `INPUT_${name}`;
}

function replaceInputs(value: unknown, notes: string[]): unknown {
  if (typeof value === "string")
    return value.replace(/\$\{input:([^}]+)\}/g, (_m, id: string) => {
      const name = envNameFor(id);
      notes.push(`\${input:${id}} became \${${name}}: set ${name} before starting indusr`);
      return `\${${name}}`;
    });
  if (Array.isArray(value)) return value.map((v) => replaceInputs(v, notes));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replaceInputs(v, notes)]));
  return value;
}

/** Reads `file` in `dialect` (guessed from its name when omitted). */
export function readPeerFile(
  file: string,
  options: {
    readonly cwd: string;
    readonly home: string;
    readonly dialect?: McpDialect;
    readonly at?: "user" | "project";
  },
): PeerFileRead {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { servers: [], invalid: [] };
    return { servers: [], invalid: [], error: `${file}: cannot read: ${(error as Error).message}` };
  }
  const dialect = options.dialect ?? dialectOfFile(file);
  let doc: unknown;
  try {
    doc = parseConfigDocument(text, dialect);
  } catch (e) {
    return {
      servers: [],
      invalid: [],
      error: `${file}: not valid ${dialect === "codex" ? "TOML" : "JSON"}: ${(e as Error).message}`,
    };
  }
  if (typeof doc !== "object" || doc === null || Array.isArray(doc))
    return { servers: [], invalid: [], error: `${file}: not an object` };
  const found = peerRowsOf(doc as Row, dialect, { file, project: path.resolve(options.cwd), home: options.home });
  const servers: ImportedServer[] = [];
  const invalid: { name: string; at: string; why: string }[] = [];
  for (const row of found.rows) {
    const name = row.name ?? "";
    if (typeof row.value !== "object" || row.value === null || Array.isArray(row.value)) {
      invalid.push({ name, at: row.row, why: "must be an object" });
      continue;
    }
    const notes: string[] = [];
    try {
      const translated = translateRow(dialect, row.value as Row, {
        warn: (m) => notes.push(m),
        note: (m) => notes.push(m),
      });
      const out = replaceInputs(translated, notes) as Record<string, unknown>;
      if (row.disabledBy) out.enabled = false;
      servers.push({
        name,
        row: out,
        file,
        at: row.row,
        notes,
        ...(row.disabledBy ? { disabledBy: row.disabledBy } : {}),
      });
    } catch (e) {
      if (!(e instanceof RowError)) throw e;
      invalid.push({ name, at: row.row, why: e.message });
    }
  }
  return { servers, invalid };
}
