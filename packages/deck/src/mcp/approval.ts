/**
 * One-time approval of another tool's project file (`.mcp.json`,
 * `.vscode/mcp.json`, ...): a cloned repository must not start programs just
 * because indus was run inside it. Approvals live in the user's state folder,
 * never in the project, keyed by project folder and file.
 */
import os from "node:os";
import path from "node:path";
import { readJsonStateSync, updateJsonStateSync } from "@indus/state-file";
import type { EnvLookup } from "./placeholders";

interface ApprovalState {
  readonly version: 1;
  readonly projects: Record<string, { readonly files: string[]; readonly approvedAt: string }>;
}

/** `$XDG_STATE_HOME/indusvx/approved-projects.json` (default `~/.local/state/...`). */
export function approvalStateFile(env: EnvLookup = process.env): string {
  const home = env.HOME ?? env.USERPROFILE ?? os.homedir();
  const state =
    env.XDG_STATE_HOME && env.XDG_STATE_HOME !== "" ? env.XDG_STATE_HOME : path.join(home, ".local", "state");
  return path.join(state, "indusvx", "approved-projects.json");
}

type ProjectApproval = ApprovalState["projects"][string];

function isApproval(value: unknown): value is ProjectApproval {
  const entry = value as Partial<ProjectApproval> | null;
  return (
    typeof entry === "object" && entry !== null && Array.isArray(entry.files) && typeof entry.approvedAt === "string"
  );
}

/** The approvals the file holds; a missing or unreadable file approves nothing. */
function decodeState(doc: unknown): ApprovalState {
  const projects: Record<string, ProjectApproval> = {};
  const stored = (doc as Partial<ApprovalState> | null | undefined)?.projects;
  if (typeof stored === "object" && stored !== null) {
    for (const [project, entry] of Object.entries(stored)) if (isApproval(entry)) projects[project] = entry;
  }
  return { version: 1, projects };
}

export function isProjectFileApproved(project: string, file: string, env: EnvLookup = process.env): boolean {
  const entry = readJsonStateSync(approvalStateFile(env), decodeState).projects[path.resolve(project)];
  return entry?.files.includes(path.resolve(file)) ?? false;
}

/**
 * Records approval of `files` for `project`: a locked read-modify-write of
 * the state file (mode 0600), so approvals given at once in other processes
 * are all kept.
 */
export function approveProjectFiles(project: string, files: readonly string[], env: EnvLookup = process.env): string {
  const stateFile = approvalStateFile(env);
  const key = path.resolve(project);
  updateJsonStateSync(stateFile, decodeState, (state) => {
    const known = new Set(state.projects[key]?.files ?? []);
    for (const file of files) known.add(path.resolve(file));
    state.projects[key] = { files: [...known].sort(), approvedAt: new Date().toISOString() };
    return state;
  });
  return stateFile;
}
