/**
 * The permission gate. Read-only tools always run. A mutating tool runs when
 * `--yes` was given, when an `--allow` pattern matches its name, when the user
 * said "always" earlier in this session, or when the user approves it now (on
 * a terminal). Plan mode overrides all of that: only read-only tools run.
 * A refusal is not an error of the agent: it becomes the tool's result, so the
 * model learns why and can change course.
 */
import type { ToolCall } from "@indus/contract";
import type { RefusalKind } from "../events";

export type PermissionAnswer = "once" | "always" | "deny";

/** Asks the person at the terminal; absent when nobody can answer. */
export type PermissionAsker = (call: ToolCall, signal: AbortSignal) => Promise<PermissionAnswer>;

export type GateDecision =
  | { readonly ok: true; readonly how: "read-only" | "yes" | "allow" | "session" | "asked" }
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

export interface GateOptions {
  readonly allow: readonly string[];
  readonly yes: boolean;
  readonly ask?: PermissionAsker;
}

export class PermissionGate {
  private readonly allowPatterns: RegExp[];
  private readonly alwaysAllowed = new Set<string>();
  private readonly yes: boolean;
  private readonly ask: PermissionAsker | undefined;

  constructor(options: GateOptions) {
    this.allowPatterns = options.allow.map(globToRegExp);
    this.yes = options.yes;
    this.ask = options.ask;
  }

  /** True when a mutating tool would run without asking. */
  preApproved(name: string): boolean {
    return this.yes || this.alwaysAllowed.has(name) || this.allowPatterns.some((re) => re.test(name));
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
    if (this.alwaysAllowed.has(call.name)) return { ok: true, how: "session" };
    if (!this.ask) {
      return {
        ok: false,
        kind: "not-allowed",
        message: `Refused: \`${call.name}\` is not known to be read-only, and this session may not run it without approval (the user can allow it with --allow ${call.name} or --yes). Do not retry it; continue without it or explain what you would have done.`,
      };
    }
    const answer = await this.ask(call, signal);
    if (answer === "always") this.alwaysAllowed.add(call.name);
    if (answer === "once" || answer === "always") return { ok: true, how: "asked" };
    return {
      ok: false,
      kind: "denied",
      message: `Refused: the user declined \`${call.name}\` for this call. Do not retry it unchanged; ask the user or take another approach.`,
    };
  }
}
