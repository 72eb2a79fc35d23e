/**
 * Approval of another tool's project file (`.mcp.json`, `.vscode/mcp.json`,
 * ...), row by row and bound to each row's content: a cloned repository must
 * not start programs just because indus was run inside it, and a later
 * commit that changes a row's command (or adds a row) must not either.
 * Approvals live in the user's state folder, never in the project, keyed by
 * project folder, file and server name.
 */
import os from "node:os";
import path from "node:path";
import { readJsonStateSync, updateJsonStateSync } from "@indus/state-file";
import { isRecord, type JsonObject } from "@indus/contract";
import type { ApprovedRow, ApprovedRows, PendingApproval } from "./config-types";
import type { EnvLookup } from "./placeholders";

interface ProjectApproval {
  /** File → its approved rows. A file approved before approvals were bound to content has none. */
  readonly files: Record<string, ApprovedRows>;
  readonly approvedAt: string;
}

interface ApprovalState {
  readonly version: 2;
  readonly projects: Record<string, ProjectApproval>;
}

/** `$XDG_STATE_HOME/indusvx/approved-projects.json` (default `~/.local/state/...`). */
export function approvalStateFile(env: EnvLookup = process.env): string {
  const home = env.HOME ?? env.USERPROFILE ?? os.homedir();
  const state =
    env.XDG_STATE_HOME && env.XDG_STATE_HOME !== "" ? env.XDG_STATE_HOME : path.join(home, ".local", "state");
  return path.join(state, "indusvx", "approved-projects.json");
}

function rowsOf(value: unknown): ApprovedRows {
  if (!isRecord(value)) return {};
  const rows: Record<string, ApprovedRow> = {};
  for (const [name, entry] of Object.entries(value)) {
    if (isRecord(entry) && typeof entry["digest"] === "string" && isRecord(entry["row"]))
      rows[name] = { digest: entry["digest"], row: entry["row"] as JsonObject };
  }
  return rows;
}

/**
 * The approvals the file holds; a missing or unreadable file approves
 * nothing. A version 1 entry (a list of files, approved by path alone) keeps
 * its files known but approves none of their rows: each is asked again once.
 */
function decodeState(doc: unknown): ApprovalState {
  const projects: Record<string, ProjectApproval> = {};
  const stored = isRecord(doc) ? doc["projects"] : undefined;
  if (!isRecord(stored)) return { version: 2, projects };
  for (const [project, entry] of Object.entries(stored)) {
    if (!isRecord(entry)) continue;
    const files = entry["files"];
    const approvedAt = typeof entry["approvedAt"] === "string" ? entry["approvedAt"] : "";
    if (Array.isArray(files))
      projects[project] = {
        files: Object.fromEntries(files.filter((f) => typeof f === "string").map((f) => [f, {}])),
        approvedAt,
      };
    else if (isRecord(files))
      projects[project] = {
        files: Object.fromEntries(Object.entries(files).map(([f, rows]) => [f, rowsOf(rows)])),
        approvedAt,
      };
  }
  return { version: 2, projects };
}

/** The rows of `file` approved for `project` (empty when none: every row is new). */
export function approvedRows(project: string, file: string, env: EnvLookup = process.env): ApprovedRows {
  const entry = readJsonStateSync(approvalStateFile(env), decodeState).projects[path.resolve(project)];
  return entry?.files[path.resolve(file)] ?? {};
}

/**
 * Records approval of exactly the rows shown in `pending` (each at the
 * digest it was shown with, so a row changed since is asked again): a locked
 * read-modify-write of the state file (mode 0600), so approvals given at
 * once in other processes are all kept. Other rows of the same files stay
 * as they were.
 */
export function approveProjectRows(
  project: string,
  pending: readonly PendingApproval[],
  env: EnvLookup = process.env,
): string {
  const stateFile = approvalStateFile(env);
  const key = path.resolve(project);
  updateJsonStateSync(stateFile, decodeState, (state) => {
    const files = { ...state.projects[key]?.files };
    for (const file of pending) {
      const rows: Record<string, ApprovedRow> = { ...files[path.resolve(file.file)] };
      for (const row of file.rows) rows[row.name] = { digest: row.digest, row: row.shown };
      files[path.resolve(file.file)] = rows;
    }
    state.projects[key] = { files, approvedAt: new Date().toISOString() };
    return state;
  });
  return stateFile;
}
