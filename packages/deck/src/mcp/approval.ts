/**
 * One-time approval of another tool's project file (`.mcp.json`,
 * `.vscode/mcp.json`, ...): a cloned repository must not start programs just
 * because indus was run inside it. Approvals live in the user's state folder,
 * never in the project, keyed by project folder and file.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
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

function readState(file: string): ApprovalState {
  try {
    const doc = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<ApprovalState>;
    if (doc && typeof doc.projects === "object" && doc.projects !== null) return { version: 1, projects: doc.projects };
  } catch {
    // missing or unreadable: nothing approved yet
  }
  return { version: 1, projects: {} };
}

export function isProjectFileApproved(project: string, file: string, env: EnvLookup = process.env): boolean {
  const entry = readState(approvalStateFile(env)).projects[path.resolve(project)];
  return entry?.files.includes(path.resolve(file)) ?? false;
}

/** Records approval of `files` for `project` (written atomically, mode 0600). */
export function approveProjectFiles(project: string, files: readonly string[], env: EnvLookup = process.env): string {
  const stateFile = approvalStateFile(env);
  const state = readState(stateFile);
  const key = path.resolve(project);
  const known = new Set(state.projects[key]?.files ?? []);
  for (const file of files) known.add(path.resolve(file));
  state.projects[key] = { files: [...known].sort(), approvedAt: new Date().toISOString() };
  fs.mkdirSync(path.dirname(stateFile), { recursive: true, mode: 0o700 });
  const temp = `${stateFile}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temp, stateFile);
  return stateFile;
}
