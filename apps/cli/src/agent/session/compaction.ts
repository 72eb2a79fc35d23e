/**
 * Compaction: when the conversation nears the model's context window (or the
 * provider refused it as too long), the older turns are replaced by a summary
 * the session's own model writes; the newest turns stay verbatim. The
 * transcript keeps every message; only what the model is sent shrinks.
 *
 * The summary request itself must fit: the older turns go to the model as
 * one plain-text rendering, each tool result clipped, the whole cut to half
 * the window (keeping the newest part). If even that request fails, the older
 * turns are dropped with a note, so an overflow never jams the session.
 */
import { APICallError, RetryError, type LanguageModel, type ModelMessage } from "ai";
import { streamTurn } from "./turn-stream";
import { describeModelError } from "../model/model-error";

/** Start compacting before a request once the conversation takes this share of the window. */
export const COMPACT_AT = 0.8;
/** The newest turns kept verbatim may take up to this share of the window. */
const KEEP_SHARE = 0.25;
/** Rough and safe: JSON-heavy text runs at about four characters a token. */
const CHARS_PER_TOKEN = 4;
const RESULT_CLIP = 1_500;
const INPUT_CLIP = 300;
const SUMMARY_TOKENS = 2_000;

export interface CompactionRequest {
  readonly model: LanguageModel;
  readonly contextWindow: number;
  readonly signal: AbortSignal;
  readonly maxRetries: number;
  /** What the summary should keep above all (`/compact <focus>`). */
  readonly focus?: string;
  /** Where the whole conversation stays, named in the summary message. */
  readonly transcript: string;
}

export type Compaction =
  | {
      readonly kind: "summarised" | "dropped";
      readonly messages: ModelMessage[];
      /** How many messages the summary (or the note) replaced. */
      readonly replaced: number;
      readonly kept: number;
      readonly summary: string;
      /** Why the summary could not be written (`dropped`). */
      readonly error?: string;
    }
  | { readonly kind: "nothing"; readonly reason: string };

/** The provider refused the request as longer than its context window (400/413 with its own marker). */
export function isContextOverflow(error: unknown): boolean {
  const cause = RetryError.isInstance(error) ? error.lastError : error;
  if (!APICallError.isInstance(cause)) return false;
  if (cause.statusCode !== undefined && cause.statusCode !== 400 && cause.statusCode !== 413) return false;
  const body = `${cause.responseBody ?? ""} ${cause.message}`;
  return /context_length_exceeded|maximum context length|context window|prompt is too long|too many tokens|reduce the length/i.test(
    body,
  );
}

/** Estimated tokens of messages as the provider would count them (roughly). */
export function estimateTokens(messages: readonly ModelMessage[]): number {
  return Math.ceil(JSON.stringify(messages).length / CHARS_PER_TOKEN);
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… [${text.length - max} more characters]` : text;
}

function partText(part: unknown): string {
  const p = part as { type?: string; text?: string; toolName?: string; input?: unknown; output?: { value?: unknown } };
  switch (p.type) {
    case "text":
      return p.text ?? "";
    case "tool-call":
      return `[called ${p.toolName} ${clip(JSON.stringify(p.input ?? {}), INPUT_CLIP)}]`;
    case "tool-result": {
      const value = p.output?.value;
      return `[result of ${p.toolName}: ${clip(typeof value === "string" ? value : JSON.stringify(value ?? null), RESULT_CLIP)}]`;
    }
    default:
      return "";
  }
}

/** One message as plain text for the summary request. */
function renderMessage(message: ModelMessage): string {
  const body =
    typeof message.content === "string"
      ? message.content
      : (message.content as readonly unknown[]).map(partText).filter(Boolean).join("\n");
  const who = { user: "User", assistant: "Assistant", tool: "Tools", system: "System" }[message.role];
  return `${who}: ${body}`;
}

/**
 * Where the kept turns start: the newest user prompt when what follows it
 * fits the keep budget, else the earliest later assistant message whose tail
 * fits (a tool message never starts the tail: its call would be missing).
 */
export function keepFrom(messages: readonly ModelMessage[], keepTokens: number): number {
  const lastPrompt = messages.findLastIndex((m) => m.role === "user");
  const starts = messages
    .map((m, i) => ({ m, i }))
    .filter(({ m, i }) => i >= Math.max(lastPrompt, 0) && (m.role === "user" || m.role === "assistant"))
    .map(({ i }) => i);
  for (const start of starts) if (estimateTokens(messages.slice(start)) <= keepTokens) return start;
  return starts.at(-1) ?? messages.length;
}

const SUMMARY_SYSTEM =
  "You compact a coding agent's conversation so it can go on within its context window. Write a summary another agent can continue from: the user's requests and the current task (verbatim where short), decisions made, files read and changed (with paths), commands run and their outcomes, errors met, and what remains to do. Be specific and complete; no preamble.";

function summaryPrompt(older: readonly ModelMessage[], budgetChars: number, focus: string | undefined): string {
  let text = older.map(renderMessage).join("\n\n");
  if (text.length > budgetChars) text = `[the oldest part is cut]\n${text.slice(text.length - budgetChars)}`;
  return [
    "Summarise this conversation between a user and a coding agent (the newest turns follow the summary verbatim, so end where this part ends).",
    ...(focus ? [`Above all keep: ${focus}`] : []),
    "",
    "<conversation>",
    text,
    "</conversation>",
  ].join("\n");
}

async function writeSummary(
  older: readonly ModelMessage[],
  request: CompactionRequest,
): Promise<{ text: string } | { error: string }> {
  const budgetChars = Math.floor((request.contextWindow / 2) * CHARS_PER_TOKEN);
  const turn = await streamTurn(
    {
      model: request.model,
      system: SUMMARY_SYSTEM,
      messages: [{ role: "user", content: summaryPrompt(older, budgetChars, request.focus) }],
      tools: {},
      signal: request.signal,
      maxRetries: request.maxRetries,
      maxOutputTokens: SUMMARY_TOKENS,
    },
    0,
    () => undefined,
    () => true,
  );
  if (turn.error) return { error: describeModelError(turn.error.cause) };
  if (turn.text.trim().length === 0) return { error: "the model wrote an empty summary" };
  return { text: turn.text.trim() };
}

/** The conversation with its older turns replaced by a summary (or, failing that, a note). */
export async function compactConversation(
  messages: readonly ModelMessage[],
  request: CompactionRequest,
): Promise<Compaction> {
  const start = keepFrom(messages, Math.floor(request.contextWindow * KEEP_SHARE));
  if (start <= 0) return { kind: "nothing", reason: "the conversation is only the current turn" };
  const older = messages.slice(0, start);
  const kept = messages.slice(start);
  const written = await writeSummary(older, request);
  const summary =
    "text" in written
      ? `[The earlier conversation (${older.length} messages) was compacted into this summary; the full transcript is ${request.transcript}]\n\n${written.text}`
      : `[${older.length} earlier messages were dropped to fit the context window (a summary could not be written: ${written.error}); the full transcript is ${request.transcript}]`;
  const head: ModelMessage[] = [{ role: "user", content: summary }];
  // Roles alternate: a kept tail that opens with a prompt gets an acknowledgement between.
  if (kept[0]?.role === "user") head.push({ role: "assistant", content: "Understood: I continue from this summary." });
  return {
    kind: "text" in written ? "summarised" : "dropped",
    messages: [...head, ...kept],
    replaced: older.length,
    kept: kept.length,
    summary,
    ...("error" in written ? { error: written.error } : {}),
  };
}
