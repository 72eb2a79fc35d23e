/**
 * Edits of an MCP config file that keep everything else in it: unrelated keys,
 * comments and formatting survive (jsonc-parser edits text in place), and the
 * file is replaced atomically (temp file + rename) so an error never loses it.
 * Each edit holds the file's lock from read to rename (`@indus/state-file`),
 * writes through symlinks to their target, and keeps a UTF-8 BOM and CRLF
 * line ends as it found them.
 */
import fs from "node:fs";
import path from "node:path";
import {
  applyEdits,
  findNodeAtLocation,
  modify,
  parse,
  parseTree,
  printParseErrorCode,
  type Node,
  type ParseError,
} from "jsonc-parser";
import { StateFileError, withFileLockSync, writeFileAtomicSync, writeTarget } from "@indus/state-file";

export type Scope = "project" | "user";

export interface ConfigEnv {
  readonly cwd: string;
  readonly home: string;
  readonly xdgConfigHome?: string | undefined;
}

/** Where `mcp add --scope` writes: the project file or the user (XDG) file. */
export function configPathFor(scope: Scope, env: ConfigEnv): string {
  if (scope === "project") return path.join(env.cwd, ".indusvx", "mcp.json");
  const xdg = env.xdgConfigHome && env.xdgConfigHome.length > 0 ? env.xdgConfigHome : path.join(env.home, ".config");
  return path.join(xdg, "indusvx", "mcp.json");
}

export class ConfigFileError extends Error {
  override readonly name = "ConfigFileError";
  constructor(
    readonly file: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${file}: ${message}`, options);
  }
}

const BOM = "\uFEFF";

interface LoadedText {
  /** The text without a leading BOM. */
  readonly text: string;
  readonly bom: boolean;
  readonly exists: boolean;
  readonly root: Record<string, unknown>;
}

function load(file: string): LoadedText {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      return { text: "{}\n", bom: false, exists: false, root: {} };
    throw new ConfigFileError(file, `cannot read: ${(error as Error).message}`, { cause: error });
  }
  const bom = text.startsWith(BOM);
  if (bom) text = text.slice(BOM.length);
  const errors: ParseError[] = [];
  const root: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const first = errors[0]!;
    const line = text.slice(0, first.offset).split("\n").length;
    throw new ConfigFileError(
      file,
      `is not valid JSON (${printParseErrorCode(first.error)} at line ${line}); left unchanged`,
    );
  }
  if (root === null || typeof root !== "object" || Array.isArray(root)) {
    throw new ConfigFileError(file, "must hold a JSON object; left unchanged");
  }
  return { text, bom, exists: true, root: root as Record<string, unknown> };
}

/** Which key holds the servers: an existing `servers` or `mcpServers`, else `servers`. */
function serversKey(root: Record<string, unknown>): "servers" | "mcpServers" {
  if (root.servers !== undefined) return "servers";
  if (root.mcpServers !== undefined) return "mcpServers";
  return "servers";
}

function detectIndent(text: string): { insertSpaces: boolean; tabSize: number } {
  const match = /^([ \t]+)\S/m.exec(text);
  if (!match) return { insertSpaces: true, tabSize: 2 };
  const indent = match[1]!;
  return indent.startsWith("\t") ? { insertSpaces: false, tabSize: 1 } : { insertSpaces: true, tabSize: indent.length };
}

/**
 * Read, edit and write `file` under its lock. `edit` returns the new text
 * (BOM stripped; it is put back) or undefined to leave the file alone.
 */
function editLocked<T>(file: string, edit: (loaded: LoadedText) => { text?: string; result: T }): T {
  const target = writeTarget(file);
  try {
    return withFileLockSync(
      target,
      () => {
        const loaded = load(target);
        const { text, result } = edit(loaded);
        if (text !== undefined) writeFileAtomic(target, loaded.bom ? BOM + text : text);
        return result;
      },
      FOLDERS,
    );
  } catch (error) {
    if (error instanceof ConfigFileError) throw error;
    // The lock was held too long, or creating the folder, the lock or the file failed: nothing was written.
    throw new ConfigFileError(file, `${whyUnwritten(error)}; the file is unchanged`, { cause: error });
  }
}

function whyUnwritten(error: unknown): string {
  if (StateFileError.isInstance(error) && error.kind === "locked") return "another indusr is still writing it";
  const cause = StateFileError.isInstance(error) ? error.cause : error;
  return `cannot write: ${(cause as Error).message}`;
}

/** Config folders are ordinary folders (the umask decides), unlike private state folders. */
const FOLDERS = { dirMode: 0o777 } as const;

/** Write `text` to `file` atomically: a sibling temp file, fsync, rename. Symlinks: the target is written. */
export function writeFileAtomic(linkOrFile: string, text: string): void {
  const file = writeTarget(linkOrFile);
  try {
    writeFileAtomicSync(file, text, FOLDERS);
  } catch (error) {
    throw new ConfigFileError(file, `${whyUnwritten(error)}; the file is unchanged`, { cause: error });
  }
}

function serverNames(root: Record<string, unknown>): string[] {
  const servers = root[serversKey(root)];
  if (Array.isArray(servers)) {
    return servers.map((row: unknown) => {
      const name = (row as { name?: unknown } | null | undefined)?.name;
      return typeof name === "string" ? name : "";
    });
  }
  if (servers && typeof servers === "object") return Object.keys(servers);
  return [];
}

function lineIndentAt(text: string, offset: number): string {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

/**
 * Insert one member at the end of an object or array, formatted like its
 * siblings. Only new text is written: no existing line is reformatted.
 */
function insertMember(
  text: string,
  container: Node,
  { key, value }: { readonly key: string | null; readonly value: unknown },
  { unit, eol }: TextStyle,
): string {
  const children = container.children ?? [];
  const parentIndent = lineIndentAt(text, container.offset);
  const childIndent = children.length > 0 ? lineIndentAt(text, children[0]!.offset) : parentIndent + unit;
  const body = JSON.stringify(value, null, unit)
    .split("\n")
    .join(eol + childIndent);
  const member = `${key === null ? "" : `${JSON.stringify(key)}: `}${body}`;
  if (children.length > 0) {
    const last = children[children.length - 1]!;
    const at = last.offset + last.length;
    const sameLine = !text.slice(children[0]!.offset - childIndent.length - 1, children[0]!.offset).includes("\n");
    const separator = sameLine ? ", " : `,${eol}${childIndent}`;
    return text.slice(0, at) + separator + member + text.slice(at);
  }
  const open = container.offset + 1;
  const close = container.offset + container.length - 1;
  return text.slice(0, open) + `${eol}${childIndent}${member}${eol}${parentIndent}` + text.slice(close);
}

/** Add one server row. Refuses a name that is already there. */
export function addServerToFile(
  file: string,
  name: string,
  row: Record<string, unknown>,
  options: { replace?: boolean } = {},
): void {
  editLocked(file, (loaded) => ({
    text: addedText(file, loaded, { name, row, replace: options.replace === true }),
    result: undefined,
  }));
}

/** How the file writes JSON: one indent unit, and its line ending. */
interface TextStyle {
  readonly unit: string;
  readonly eol: string;
}

function addedText(
  file: string,
  loaded: LoadedText,
  { name, row, replace }: { readonly name: string; readonly row: Record<string, unknown>; readonly replace: boolean },
): string {
  const key = serversKey(loaded.root);
  const existing = loaded.root[key];
  if (existing !== undefined && (typeof existing !== "object" || existing === null)) {
    throw new ConfigFileError(file, `"${key}" is neither an object nor an array; left unchanged`);
  }
  const exists = serverNames(loaded.root).includes(name);
  if (exists && !replace) {
    throw new ConfigFileError(file, `a server named "${name}" already exists (remove it first, or pass --force)`);
  }
  const style = detectIndent(loaded.text);
  const unit = style.insertSpaces ? " ".repeat(style.tabSize) : "\t";
  const eol = loaded.text.includes("\r\n") ? "\r\n" : "\n";
  const tree = parseTree(loaded.text, [], { allowTrailingComma: true })!;
  let next: string;
  if (exists) {
    const index = Array.isArray(existing) ? existing.findIndex((r) => (r as { name?: unknown })?.name === name) : -1;
    const jsonPath = Array.isArray(existing) ? [key, index] : [key, name];
    const value = Array.isArray(existing) ? { name, ...row } : row;
    next = applyEdits(loaded.text, modify(loaded.text, jsonPath, value, { formattingOptions: { ...style, eol } }));
  } else if (existing === undefined) {
    next = insertMember(loaded.text, tree, { key, value: { [name]: row } }, { unit, eol });
  } else {
    const container = findNodeAtLocation(tree, [key])!;
    next = Array.isArray(existing)
      ? insertMember(loaded.text, container, { key: null, value: { name, ...row } }, { unit, eol })
      : insertMember(loaded.text, container, { key: name, value: row }, { unit, eol });
  }
  if (!next.endsWith("\n")) next += eol;
  return next;
}

/** Remove one server row; false when the file has no such server. */
export function removeServerFromFile(file: string, name: string): boolean {
  return editLocked(file, (loaded) => {
    if (!loaded.exists || !serverNames(loaded.root).includes(name)) return { result: false };
    const key = serversKey(loaded.root);
    const servers = loaded.root[key];
    const jsonPath = Array.isArray(servers)
      ? [key, servers.findIndex((r) => (r as { name?: unknown })?.name === name)]
      : [key, name];
    const eol = loaded.text.includes("\r\n") ? "\r\n" : "\n";
    const edits = modify(loaded.text, jsonPath, undefined, {
      formattingOptions: { ...detectIndent(loaded.text), eol },
    });
    return { text: applyEdits(loaded.text, edits), result: true };
  });
}

/** Names of the servers a file holds (empty when missing). */
export function listServerNames(file: string): string[] {
  return serverNames(load(writeTarget(file)).root);
}
