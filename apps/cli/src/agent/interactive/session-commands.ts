/**
 * Slash commands about the session itself: `/status` (model, context use,
 * instructions loaded, servers, saved permissions), `/compact [focus]` and
 * `/resume [id]` (pick a conversation of this folder and go on with it).
 * The pick is a numbered list answered on the prompt line.
 */
import type { Prepared } from "../prepared";
import { projectRoot } from "../session/project-instructions";
import { restoreConversation, resumeChoice, resumeNote, sessionRow, type SessionSummary } from "../session/resume";
import type { AgentSession } from "../session/session";
import type { Style } from "../render";

/** What these commands need beyond the common slash context. */
export interface SessionCommandContext {
  readonly session: AgentSession;
  readonly prepared: Prepared;
  readonly style: Style;
  print(text: string): void;
  /** The running command's cancel signal. */
  signal(): AbortSignal;
  /** Ask on the prompt line (the picker). */
  ask(question: string, signal: AbortSignal): Promise<string | undefined>;
}

const PICK_LIMIT = 10;

export function statusCommand(ctx: SessionCommandContext): void {
  const { prepared, session, style } = ctx;
  const fill = Math.round(session.contextFill() * 100);
  ctx.print(`${style.bold("model")}     ${prepared.config.provider} ${prepared.modelId} · ${prepared.config.baseUrl}`);
  ctx.print(
    `${style.bold("context")}   ~${fill}% of ${prepared.contextWindow} tokens (compacts itself at 80%; /compact now)`,
  );
  ctx.print(
    `${style.bold("session")}   ${session.id} · ${session.turns} turns · transcript ${session.transcript.file}`,
  );
  const files = prepared.instructions.files;
  if (files.length === 0)
    ctx.print(
      `${style.bold("instructions")} none (AGENTS.md or CLAUDE.md in the project root, or ~/.indusvx/AGENTS.md)`,
    );
  for (const file of files)
    ctx.print(
      `${style.bold("instructions")} ${file.file} (${file.scope}, ${file.bytes} bytes${file.truncated ? ", truncated" : ""})`,
    );
  for (const problem of prepared.instructions.problems) ctx.print(`${style.yellow("warning:")} not read: ${problem}`);
  const servers = session.servers();
  ctx.print(
    `${style.bold("servers")}   ${servers.length === 0 ? "none" : servers.map((s) => `${s.id} ${s.phase === "ready" ? style.green("✓") : style.red("✗")}`).join(", ")}`,
  );
  const rules = prepared.permissions.rules();
  const allowed = [...rules.tools, ...rules.servers.map((s) => `${s} (server)`)];
  ctx.print(
    `${style.bold("allowed")}   ${allowed.length === 0 ? "nothing saved" : allowed.join(", ")} in ${projectRoot(prepared.cwd)}`,
  );
}

export async function compactCommand(args: readonly string[], ctx: SessionCommandContext): Promise<void> {
  ctx.print(ctx.style.dim("compacting…"));
  await ctx.session.compact(ctx.signal(), args.join(" ").trim() || undefined);
}

/** A numbered list of sessions; the answer's number, the newest on Enter, none otherwise. */
async function pick(
  sessions: readonly SessionSummary[],
  ctx: SessionCommandContext,
): Promise<SessionSummary | undefined> {
  const shown = sessions.slice(0, PICK_LIMIT);
  shown.forEach((s, i) => ctx.print(sessionRow(i + 1, s)));
  const answer = await ctx.ask(
    `${ctx.style.yellow("?")} resume which? [1-${shown.length}] (Enter: 1, anything else: none) › `,
    ctx.signal(),
  );
  if (answer === undefined) return undefined;
  const n = answer.trim() === "" ? 1 : Number(answer.trim());
  return Number.isInteger(n) && n >= 1 && n <= shown.length ? shown[n - 1] : undefined;
}

/** Restore `summary`'s conversation into the session and say what came back. */
export function resumeFrom(
  summary: SessionSummary,
  ctx: Pick<SessionCommandContext, "session" | "print" | "style">,
): void {
  const restored = restoreConversation(summary);
  ctx.session.restore(restored);
  ctx.print(`${ctx.style.yellow("◆")} ${resumeNote(restored)}`);
}

/** `/resume [id]`, and `--continue` / `--resume [id]` at start. */
export async function resumeCommand(args: readonly string[], ctx: SessionCommandContext): Promise<void> {
  const { prepared } = ctx;
  const choice =
    args[0] !== undefined
      ? resumeChoice({ resume: args[0] }, prepared.sessionDir, prepared.cwd, ctx.session.id)
      : resumeChoice({ resume: true }, prepared.sessionDir, prepared.cwd, ctx.session.id);
  await resumeWith(choice, ctx);
}

export async function resumeWith(choice: ReturnType<typeof resumeChoice>, ctx: SessionCommandContext): Promise<void> {
  if (choice.kind === "none") return;
  if (choice.kind === "error") {
    ctx.print(`${ctx.style.yellow("warning:")} ${choice.message}`);
    return;
  }
  const chosen = choice.kind === "session" ? choice.session : await pick(choice.sessions, ctx);
  if (!chosen) {
    ctx.print("Nothing resumed.");
    return;
  }
  resumeFrom(chosen, ctx);
}
