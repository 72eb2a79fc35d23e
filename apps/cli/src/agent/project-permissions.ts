/**
 * "Always allow" answers saved per project: a tool (`write`,
 * `everything__echo`) or every tool of one MCP server, for one project
 * folder. They live in the user's state folder, never in the project, so a
 * cloned repository cannot approve anything for itself (the same rule as the
 * approvals of other tools' project files).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { withConfigLock } from "../config-lock";

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

function readState(file: string): State {
  try {
    const doc = JSON.parse(fs.readFileSync(file, "utf8")) as { projects?: unknown };
    if (doc.projects && typeof doc.projects === "object")
      return { version: 1, projects: doc.projects as State["projects"] };
  } catch {
    // missing or unreadable: nothing saved yet
  }
  return { version: 1, projects: {} };
}

export class ProjectPermissions {
  private readonly file: string;
  private readonly project: string;

  constructor(project: string, env: NodeJS.ProcessEnv) {
    this.file = projectPermissionsFile(env);
    this.project = path.resolve(project);
  }

  /** What this project allows, read fresh (another session may have added to it). */
  rules(): ProjectRules {
    const entry = readState(this.file).projects[this.project];
    return { tools: strings(entry?.tools), servers: strings(entry?.servers) };
  }

  allows(tool: string, server: string | undefined): boolean {
    const rules = this.rules();
    return rules.tools.includes(tool) || (server !== undefined && rules.servers.includes(server));
  }

  /** Save "always" for a tool or a server; the file written. */
  save(rule: { readonly tool: string } | { readonly server: string }): string {
    fs.mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    withConfigLock(this.file, () => {
      const state = readState(this.file);
      const current = state.projects[this.project];
      const tools = new Set(strings(current?.tools));
      const servers = new Set(strings(current?.servers));
      if ("tool" in rule) tools.add(rule.tool);
      else servers.add(rule.server);
      state.projects[this.project] = {
        tools: [...tools].sort(),
        servers: [...servers].sort(),
        updatedAt: new Date().toISOString(),
      };
      const temp = `${this.file}.${process.pid}.tmp`;
      fs.writeFileSync(temp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
      fs.renameSync(temp, this.file);
    });
    return this.file;
  }
}
