/**
 * "Always allow" answers saved per project: a tool (`write`,
 * `everything__echo`) or every tool of one MCP server, for one project
 * folder. They live in the user's state folder, never in the project, so a
 * cloned repository cannot approve anything for itself (the same rule as the
 * approvals of other tools' project files).
 */
import os from "node:os";
import path from "node:path";
import { readJsonStateSync, updateJsonStateSync } from "@indus/state-file";

export interface ProjectRules {
  readonly tools: readonly string[];
  readonly servers: readonly string[];
}

interface State {
  readonly version: 1;
  readonly projects: Record<string, ProjectRules & { readonly updatedAt?: string }>;
}

/** `$XDG_STATE_HOME/indusvx/allowed-tools.json` (default `~/.local/state/...`). */
export function projectPermissionsFile(env: NodeJS.ProcessEnv): string {
  const home = env.HOME && env.HOME.length > 0 ? env.HOME : os.homedir();
  const state =
    env.XDG_STATE_HOME && env.XDG_STATE_HOME.length > 0 ? env.XDG_STATE_HOME : path.join(home, ".local", "state");
  return path.join(state, "indusvx", "allowed-tools.json");
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];

/** Missing, unreadable or not ours: nothing saved yet. */
function decode(value: unknown): State {
  const projects = (value as { projects?: unknown } | undefined)?.projects;
  return {
    version: 1,
    projects: projects !== null && typeof projects === "object" ? (projects as State["projects"]) : {},
  };
}

const FILE_OPTIONS = { mode: 0o600, dirMode: 0o700 };

export class ProjectPermissions {
  private readonly file: string;
  private readonly project: string;

  constructor(project: string, env: NodeJS.ProcessEnv) {
    this.file = projectPermissionsFile(env);
    this.project = path.resolve(project);
  }

  /** What this project allows, read fresh (another session may have added to it). */
  rules(): ProjectRules {
    const entry = readJsonStateSync(this.file, decode).projects[this.project];
    return { tools: strings(entry?.tools), servers: strings(entry?.servers) };
  }

  allows(tool: string, server: string | undefined): boolean {
    const rules = this.rules();
    return rules.tools.includes(tool) || (server !== undefined && rules.servers.includes(server));
  }

  /** Save "always" for a tool or a server; the file written. */
  save(rule: { readonly tool: string } | { readonly server: string }): string {
    updateJsonStateSync(
      this.file,
      decode,
      (state) => {
        const current = state.projects[this.project];
        const tools = new Set(strings(current?.tools));
        const servers = new Set(strings(current?.servers));
        if ("tool" in rule) tools.add(rule.tool);
        else servers.add(rule.server);
        const entry = { tools: [...tools].sort(), servers: [...servers].sort(), updatedAt: new Date().toISOString() };
        return { version: 1 as const, projects: { ...state.projects, [this.project]: entry } };
      },
      FILE_OPTIONS,
    );
    return this.file;
  }
}
