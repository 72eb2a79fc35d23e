/**
 * The permission gate. Read-only tools always run. A mutating tool runs when
 * `--yes` was given, when an `--allow` pattern matches its name, when the user
 * said "always" for it (or its MCP server) in this session or earlier in this
 * project (saved), or when the user approves it now (on a terminal). Plan mode overrides all of that: only read-only tools run.
 * A refusal is not an error of the agent: it becomes the tool's result, so the
 * model learns why and can change course.
 */
import type { ToolCall } from "@indus/contract";
import type { RefusalKind } from "../events";

/** `always`: this tool, `server`: every tool of its MCP server; both saved for the project. */
export type PermissionAnswer = "once" | "always" | "server" | "deny";

/** Asks the person at the terminal; absent when nobody can answer. */
export type PermissionAsker = (call: ToolCall, signal: AbortSignal) => Promise<PermissionAnswer>;

export type GateDecision =
  | { readonly ok: true; readonly how: "read-only" | "yes" | "allow" | "session" | "project" | "asked" }
  | { readonly ok: false; readonly kind: RefusalKind; readonly message: string };

/** `*` matches any run of characters, `?` one; everything else is literal. */
export function globToRegExp(pattern: string): RegExp {
  let source = "";
  for (const char of pattern) {
    if (char === "*") source += ".*";
    else if (char === "?") source += ".";
    else source += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

export function matchesAny(name: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => globToRegExp(pattern).test(name));
}

/** Where "always" answers are kept for the project (see `project-permissions.ts`). */
export interface ProjectRuleStore {
  allows(tool: string, server: string | undefined): boolean;
  save(rule: { readonly tool: string } | { readonly server: string }): string;
}

export interface GateOptions {
  readonly allow: readonly string[];
  readonly yes: boolean;
  readonly ask?: PermissionAsker;
  /** "Always" answers saved per project; without it they last the session. */
  readonly project?: ProjectRuleStore;
  /** The MCP server a tool belongs to (for "always allow this server"). */
  readonly serverOf?: (tool: string) => string | undefined;
}

export class PermissionGate {
  private readonly allowPatterns: RegExp[];
  private readonly alwaysAllowed = new Set<string>();
  private readonly yes: boolean;
  private readonly ask: PermissionAsker | undefined;
  private readonly alwaysServers = new Set<string>();

  constructor(private readonly options: GateOptions) {
    this.allowPatterns = options.allow.map(globToRegExp);
    this.yes = options.yes;
    this.ask = options.ask;
  }

  private serverOf(name: string): string | undefined {
    return this.options.serverOf?.(name);
  }

  /** Allowed with "always" earlier: this session, or saved for the project. */
  private remembered(name: string): "session" | "project" | undefined {
    const server = this.serverOf(name);
    if (this.alwaysAllowed.has(name) || (server !== undefined && this.alwaysServers.has(server))) return "session";
    return this.options.project?.allows(name, server) ? "project" : undefined;
  }

  /** Keep an "always" answer for the session, and save it for the project. */
  private remember(name: string, answer: PermissionAnswer): void {
    const server = this.serverOf(name);
    if (answer === "server" && server !== undefined) {
      this.alwaysServers.add(server);
      this.options.project?.save({ server });
    } else if (answer === "always" || answer === "server") {
      this.alwaysAllowed.add(name);
      this.options.project?.save({ tool: name });
    }
  }

  /** True when a mutating tool would run without asking. */
  preApproved(name: string): boolean {
    return this.yes || this.remembered(name) !== undefined || this.allowPatterns.some((re) => re.test(name));
  }

  /** Names approved with "always" this session. */
  sessionApprovals(): readonly string[] {
    return [...this.alwaysAllowed];
  }

  async check(call: ToolCall, readOnly: boolean, planMode: boolean, signal: AbortSignal): Promise<GateDecision> {
    if (readOnly) return { ok: true, how: "read-only" };
    if (planMode) {
      return {
        ok: false,
        kind: "plan-mode",
        message: `Refused: plan mode is on, so only read-only tools run and \`${call.name}\` is not one. Keep exploring with read-only tools, then call exit_plan_mode with your plan for the user's approval.`,
      };
    }
    if (this.yes) return { ok: true, how: "yes" };
    if (this.allowPatterns.some((re) => re.test(call.name))) return { ok: true, how: "allow" };
    const remembered = this.remembered(call.name);
    if (remembered) return { ok: true, how: remembered };
    if (!this.ask) {
      return {
        ok: false,
        kind: "not-allowed",
        message: `Refused: \`${call.name}\` is not known to be read-only, and this session may not run it without approval (the user can allow it with --allow ${call.name} or --yes). Do not retry it; continue without it or explain what you would have done.`,
      };
    }
    const answer = await this.ask(call, signal);
    if (answer !== "deny") {
      try {
        this.remember(call.name, answer);
      } catch {
        // Not saved (a read-only state folder): the answer still holds for this session.
      }
      return { ok: true, how: "asked" };
    }
    return {
      ok: false,
      kind: "denied",
      message: `Refused: the user declined \`${call.name}\` for this call. Do not retry it unchanged; ask the user or take another approach.`,
    };
  }
}
