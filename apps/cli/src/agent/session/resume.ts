/**
 * Resuming a session from its transcript (`<sessionDir>/<id>.jsonl`): the
 * sessions of a folder, newest first, and one session's conversation as the
 * model last saw it: every message since the last `/clear`, a compaction's
 * summary in place of what it replaced (a resumed session's transcript opens
 * with the conversation it continued), plan mode as it stood. A transcript
 * is read as untrusted input (a line that is not a message is skipped), and a
 * tool call whose result was never written (the session died mid-call) gets a
 * result saying so, so the provider accepts the conversation.
 */
import fs from "node:fs";
import path from "node:path";
import type { ModelMessage } from "ai";

/** A main session's transcript (sub-agents' are `<id>-task<n>.jsonl`). */
const SESSION_FILE = /^(\d{8}-\d{6}-[0-9a-f]{6})\.jsonl$/;
/** A title needs the first prompt, which comes early: read no further than this. */
const HEAD_BYTES = 256 * 1024;
const TITLE_CHARS = 80;

export interface SessionSummary {
  readonly id: string;
  readonly file: string;
  readonly cwd?: string;
  /** When the transcript was last written. */
  readonly updated: Date;
  /** The first prompt, on one line. */
  readonly title: string;
}

export interface RestoredConversation {
  readonly id: string;
  readonly messages: ModelMessage[];
  readonly planMode: boolean;
  /** Tool calls that had no result in the transcript (answered as interrupted). */
  readonly unanswered: number;
  /** Prompts the restored conversation holds. */
  readonly prompts: number;
}

type Entry = Record<string, unknown>;

function parseLines(text: string): Entry[] {
  const entries: Entry[] = [];
  for (const line of text.split("\n")) {
    if (line.trim().length === 0) continue;
    try {
      const value = JSON.parse(line) as unknown;
      if (value !== null && typeof value === "object" && !Array.isArray(value)) entries.push(value as Entry);
    } catch {
      /* a torn last line, or not ours */
    }
  }
  return entries;
}

function readHead(file: string): string {
  const fd = fs.openSync(file, "r");
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    return buffer.subarray(0, fs.readSync(fd, buffer, 0, HEAD_BYTES, 0)).toString("utf8");
  } finally {
    fs.closeSync(fd);
  }
}

function firstPrompt(entries: readonly Entry[]): string {
  for (const entry of entries) {
    const message = entry.message as { role?: unknown; content?: unknown } | undefined;
    if (entry.type !== "message" || message?.role !== "user") continue;
    const text = typeof message.content === "string" ? message.content : "";
    const line = text.replace(/\s+/g, " ").trim();
    return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line;
  }
  return "(no prompt)";
}

function summaryOf(dir: string, name: string): SessionSummary | undefined {
  const id = SESSION_FILE.exec(name)?.[1];
  if (id === undefined) return undefined;
  const file = path.join(dir, name);
  try {
    const stat = fs.statSync(file);
    if (!stat.isFile()) return undefined;
    const entries = parseLines(readHead(file));
    const header = entries.find((e) => e.type === "session");
    const cwd = typeof header?.cwd === "string" ? header.cwd : undefined;
    return { id, file, ...(cwd !== undefined ? { cwd } : {}), updated: stat.mtime, title: firstPrompt(entries) };
  } catch {
    return undefined;
  }
}

/** The sessions in `sessionDir` (only those started in `cwd`, when given), newest first. */
export function listSessions(sessionDir: string, cwd?: string): SessionSummary[] {
  let names: string[];
  try {
    names = fs.readdirSync(sessionDir);
  } catch {
    return [];
  }
  const wanted = cwd === undefined ? undefined : path.resolve(cwd);
  return names
    .map((name) => summaryOf(sessionDir, name))
    .filter((s): s is SessionSummary => s !== undefined && (wanted === undefined || s.cwd === wanted))
    .sort((a, b) => b.updated.getTime() - a.updated.getTime());
}

/** A session by its id, or by a unique prefix of it. */
export function findSession(sessionDir: string, id: string): SessionSummary | undefined {
  const all = listSessions(sessionDir);
  const exact = all.find((s) => s.id === id);
  if (exact) return exact;
  const prefixed = all.filter((s) => s.id.startsWith(id));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

function isMessage(value: unknown): value is ModelMessage {
  const m = value as { role?: unknown; content?: unknown } | null;
  if (m === null || typeof m !== "object") return false;
  if (!["user", "assistant", "tool"].includes(m.role as string)) return false;
  return typeof m.content === "string" || Array.isArray(m.content);
}

interface CallPart {
  readonly type: "tool-call";
  readonly toolCallId: string;
  readonly toolName: string;
}

function callsOf(message: ModelMessage): CallPart[] {
  if (message.role !== "assistant" || typeof message.content === "string") return [];
  return (message.content as readonly { type?: string }[]).filter((p): p is CallPart => p.type === "tool-call");
}

function answeredIds(message: ModelMessage | undefined): Set<string> {
  if (message?.role !== "tool") return new Set();
  return new Set(message.content.map((p) => (p as { toolCallId?: string }).toolCallId ?? ""));
}

const UNANSWERED = "Not run: the session ended before this call finished (the conversation was resumed later).";

/** Close every call left without a result, and drop results whose call is gone. */
function pairCalls(messages: readonly ModelMessage[]): { messages: ModelMessage[]; unanswered: number } {
  const out: ModelMessage[] = [];
  let unanswered = 0;
  for (let i = 0; i < messages.length; i += 1) {
    const message = messages[i]!;
    if (message.role === "tool" && out.at(-1)?.role !== "assistant") continue;
    out.push(message);
    const calls = callsOf(message);
    if (calls.length === 0) continue;
    const answered = answeredIds(messages[i + 1]);
    const missing = calls.filter((c) => !answered.has(c.toolCallId));
    if (missing.length === 0) continue;
    unanswered += missing.length;
    const closing = missing.map((c) => ({
      type: "tool-result" as const,
      toolCallId: c.toolCallId,
      toolName: c.toolName,
      output: { type: "error-text" as const, value: UNANSWERED },
    }));
    const next = messages[i + 1];
    if (next?.role === "tool") {
      out.push({ ...next, content: [...next.content, ...closing] });
      i += 1;
    } else out.push({ role: "tool", content: closing });
  }
  return { messages: out, unanswered };
}

/** Replay the entries: messages since the last clear, compactions applied, plan mode. */
function replay(entries: readonly Entry[]): { messages: ModelMessage[]; planMode: boolean } {
  let messages: ModelMessage[] = [];
  let planMode = false;
  for (const entry of entries) {
    if (entry.type === "message" && isMessage(entry.message)) messages.push(entry.message);
    else if (entry.type === "clear") {
      messages = [];
      planMode = false;
    } else if ((entry.type === "compaction" || entry.type === "resume") && Array.isArray(entry.conversation))
      messages = entry.conversation.filter(isMessage);
    else if (entry.type === "plan_mode") planMode = entry.active === true;
    else if (entry.type === "plan" && entry.approved === true) planMode = false;
  }
  return { messages, planMode };
}

export function restoreConversation(session: Pick<SessionSummary, "id" | "file">): RestoredConversation {
  const { messages, planMode } = replay(parseLines(fs.readFileSync(session.file, "utf8")));
  const paired = pairCalls(messages);
  return {
    id: session.id,
    messages: paired.messages,
    planMode,
    unanswered: paired.unanswered,
    prompts: paired.messages.filter((m) => m.role === "user").length,
  };
}

export type ResumeChoice =
  | { readonly kind: "none" }
  | { readonly kind: "session"; readonly session: SessionSummary }
  | { readonly kind: "pick"; readonly sessions: readonly SessionSummary[] }
  | { readonly kind: "error"; readonly message: string };

/** What `--continue` / `--resume [id]` ask for: the session to continue, a list to pick from, or why not. */
export function resumeChoice(
  flags: { readonly continue?: boolean; readonly resume?: string | boolean },
  sessionDir: string,
  cwd: string,
  /** The session asking (its own transcript is never what it resumes). */
  current?: string,
): ResumeChoice {
  if (typeof flags.resume === "string") {
    const found = findSession(sessionDir, flags.resume);
    return found
      ? { kind: "session", session: found }
      : { kind: "error", message: `no session "${flags.resume}" in ${sessionDir} (a unique start of its id will do)` };
  }
  if (flags.continue !== true && flags.resume !== true) return { kind: "none" };
  const here = listSessions(sessionDir, cwd).filter((s) => s.id !== current);
  if (here.length === 0)
    return { kind: "error", message: `no earlier session started in ${cwd} (looked in ${sessionDir})` };
  return flags.continue === true ? { kind: "session", session: here[0]! } : { kind: "pick", sessions: here };
}

/** What was restored, and what a resume cannot bring back. */
export function resumeNote(restored: RestoredConversation): string {
  const unfinished =
    restored.unanswered > 0
      ? `; ${restored.unanswered} tool call${restored.unanswered === 1 ? "" : "s"} left unfinished marked as not run`
      : "";
  return (
    `resumed ${restored.id}: ${restored.messages.length} messages (${restored.prompts} prompt${restored.prompts === 1 ? "" : "s"}) with their tool results${restored.planMode ? ", plan mode on" : ""}${unfinished}. ` +
    "MCP servers were started afresh: what they kept themselves (sessions, subscriptions, anything in memory) is not restored, nor are this-session approvals and /rewind checkpoints."
  );
}

/** One row of the `--resume` picker. */
export function sessionRow(index: number, session: SessionSummary): string {
  const when = session.updated.toISOString().replace("T", " ").slice(0, 16);
  return `${String(index).padStart(2)}  ${when}  ${session.id}  ${session.title}`;
}
