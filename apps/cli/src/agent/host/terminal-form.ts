/**
 * The mounted servers' requests on the interactive terminal, one question per
 * prompt line like the permission asks: who asks and why first, then each
 * form field with its description, choices, default and required mark,
 * re-asked with the reason until the answer passes; a summary to accept,
 * edit, decline or cancel. Ctrl-C anywhere cancels. A URL request shows the
 * full link and its host before asking to open it.
 */
import type { ElicitationAnswer, JsonValue } from "@indus/contract";
import type { Style } from "../render";
import { answerField, showValue, type FormField, type ParsedForm } from "./form-fields";

/**
 * One question on the prompt line; `undefined` when the user pressed Ctrl-C
 * or `withdrawn` aborted (the question leaves the prompt line).
 */
export type LineAsker = (question: string, withdrawn?: AbortSignal) => Promise<string | undefined>;

export interface TerminalPrompter {
  readonly ask: LineAsker;
  print(line: string): void;
  readonly style: Style;
  /** Columns available for a line. */
  readonly width: number;
  /** Before a request is shown (the idle prompt line must be left first). */
  begin?(): void;
  /** After it was answered (the idle prompt comes back). */
  settled?(): void;
}

/**
 * `io` asking every question under `withdrawn`: once it aborts, the question
 * on the prompt line is taken away and every later one is answered at once
 * as if the user pressed Ctrl-C, so a form ends without a word from the user.
 */
export function withdrawable(io: TerminalPrompter, withdrawn: AbortSignal | undefined): TerminalPrompter {
  if (withdrawn === undefined) return io;
  return {
    ask: (question) => (withdrawn.aborted ? Promise.resolve(undefined) : io.ask(question, withdrawn)),
    print: (line) => io.print(line),
    style: io.style,
    width: io.width,
  };
}

const CANCEL: ElicitationAnswer = { action: "cancel" };
const DECLINE: ElicitationAnswer = { action: "decline" };

function hintOf(field: FormField): string {
  switch (field.kind) {
    case "text":
      return field.format ? field.format : "";
    case "number":
      return [
        field.integer ? "whole number" : "number",
        field.minimum !== undefined && field.maximum !== undefined
          ? `${field.minimum}–${field.maximum}`
          : field.minimum !== undefined
            ? `≥ ${field.minimum}`
            : field.maximum !== undefined
              ? `≤ ${field.maximum}`
              : "",
      ]
        .filter((s) => s.length > 0)
        .join(" ");
    case "boolean":
      return "y/n";
    case "choice":
      return "number or name";
    case "multi":
      return [
        "numbers or names, comma-separated",
        field.minItems !== undefined ? `at least ${field.minItems}` : "",
        field.maxItems !== undefined ? `at most ${field.maxItems}` : "",
      ]
        .filter((s) => s.length > 0)
        .join(", ");
  }
}

/** The lines shown above a field's question. */
function fieldLines(field: FormField, io: TerminalPrompter): string[] {
  const { style } = io;
  const head = `${style.bold(field.title)}${field.required ? style.red("*") : ""}${field.title !== field.name ? style.dim(` (${field.name})`) : ""}`;
  const lines = [`  ${head}${field.description ? ` ${style.dim(`— ${field.description}`)}` : ""}`];
  if (field.kind === "choice" || field.kind === "multi") {
    const items = field.options.map((o, i) => `${i + 1}) ${o.title}`);
    let row = "   ";
    for (const item of items) {
      if (row.length + item.length + 2 > io.width && row.trim().length > 0) {
        lines.push(row);
        row = "   ";
      }
      row += ` ${item} `;
    }
    if (row.trim().length > 0) lines.push(row);
  }
  return lines;
}

function question(field: FormField, current: JsonValue | undefined, io: TerminalPrompter): string {
  const { style } = io;
  const hint = hintOf(field);
  const shown = current !== undefined ? style.dim(` [${showValue(field, current)}]`) : "";
  return `${style.yellow("?")} ${field.name}${hint ? style.dim(` (${hint})`) : ""}${shown} › `;
}

/** Ask one field until the answer passes; `null` on Ctrl-C. */
async function askField(
  field: FormField,
  current: JsonValue | undefined,
  io: TerminalPrompter,
): Promise<JsonValue | undefined | null> {
  for (const line of fieldLines(field, io)) io.print(line);
  // The value already given (on an edit) stands in for the default.
  const withCurrent = current !== undefined ? ({ ...field, default: current } as FormField) : field;
  for (;;) {
    const typed = await io.ask(question(field, current ?? (field.default as JsonValue | undefined), io));
    if (typed === undefined) return null;
    const answer = answerField(withCurrent, typed);
    if (answer.ok) return answer.value;
    io.print(`  ${io.style.red(`✗ ${field.name}: ${answer.error}`)}`);
  }
}

/** Pick one of the keyed actions; Enter takes the first key listed; `undefined` on Ctrl-C. */
async function choose<K extends string>(
  io: TerminalPrompter,
  prompt: string,
  keys: Readonly<Record<K, readonly string[]>>,
): Promise<K | undefined> {
  for (;;) {
    const typed = await io.ask(prompt);
    if (typed === undefined) return undefined;
    const word = typed.trim().toLowerCase();
    const entries = Object.entries(keys) as [K, readonly string[]][];
    if (word.length === 0) return entries[0]![0];
    const hit = entries.find(([, words]) => words.includes(word));
    if (hit) return hit[0];
    io.print(`  ${io.style.red(`✗ answer one of: ${entries.map(([, w]) => w[0]).join(", ")}`)}`);
  }
}

/** A form request on the terminal: the user's accept (with checked content), decline or cancel. */
export async function askForm(
  server: string,
  message: string,
  form: ParsedForm,
  io: TerminalPrompter,
): Promise<ElicitationAnswer> {
  const { style } = io;
  io.print(`${style.yellow("◆")} ${style.bold(server)} asks for input`);
  for (const line of message.trim().split("\n")) io.print(`  ${line}`);
  const blocked = form.unsupported.filter((u) => u.required);
  for (const u of form.unsupported)
    io.print(
      style.dim(`  (${u.name}: ${u.reason}; ${u.required ? "required, so this form cannot be sent" : "left out"})`),
    );
  if (blocked.length > 0) {
    const pick = await choose(io, `${style.yellow("?")} [d]ecline · [c]ancel › `, {
      decline: ["d", "decline"],
      cancel: ["c", "cancel"],
    });
    return pick === "decline" ? DECLINE : CANCEL;
  }
  io.print(
    style.dim(
      `  ${form.fields.length} field${form.fields.length === 1 ? "" : "s"} · * required · Enter keeps the [value] shown · Ctrl-C cancels`,
    ),
  );
  const start = await choose(io, `${style.yellow("?")} fill in the form? [y]es · [n]o, decline · [c]ancel › `, {
    fill: ["y", "yes"],
    decline: ["n", "no", "d", "decline"],
    cancel: ["c", "cancel"],
  });
  if (start !== "fill") return start === "decline" ? DECLINE : CANCEL;

  const values: Record<string, JsonValue> = {};
  for (;;) {
    for (const field of form.fields) {
      const value = await askField(field, values[field.name], io);
      if (value === null) return CANCEL;
      if (value === undefined) delete values[field.name];
      else values[field.name] = value;
    }
    io.print(`  ${style.bold("Answers:")}`);
    for (const field of form.fields) {
      const value = values[field.name];
      io.print(`    ${field.name}: ${value === undefined ? style.dim("(left out)") : showValue(field, value)}`);
    }
    const next = await choose(
      io,
      `${style.yellow("?")} send to ${server}? [a]ccept · [e]dit · [d]ecline · [c]ancel › `,
      { accept: ["a", "accept", "y", "yes"], edit: ["e", "edit"], decline: ["d", "decline"], cancel: ["c", "cancel"] },
    );
    if (next === "accept") return { action: "accept", content: { ...values } };
    if (next !== "edit") return next === "decline" ? DECLINE : CANCEL;
  }
}

/** A URL request: show the link and its host, ask for consent, then open it (or say to). */
export async function askUrl(
  server: string,
  { message, url }: { readonly message: string; readonly url: string },
  io: TerminalPrompter,
  open: (url: string) => Promise<boolean>,
): Promise<ElicitationAnswer> {
  const { style } = io;
  let host: string;
  try {
    host = new URL(url).host;
  } catch {
    io.print(`${style.yellow("◆")} ${style.bold(server)} sent a link that is not a URL; declined: ${url}`);
    return DECLINE;
  }
  io.print(`${style.yellow("◆")} ${style.bold(server)} asks you to open a link`);
  for (const line of message.trim().split("\n")) io.print(`  ${line}`);
  io.print(`  ${style.cyan(url)}`);
  io.print(style.dim(`  (it goes to ${host})`));
  // Opening a link takes an explicit yes: Enter declines.
  const pick = await choose(io, `${style.yellow("?")} open it? [y]es · [n]o, decline · [c]ancel › `, {
    decline: ["n", "no", "d", "decline"],
    open: ["y", "yes", "o", "open"],
    cancel: ["c", "cancel"],
  });
  if (pick !== "open") return pick === "decline" ? DECLINE : CANCEL;
  if (await open(url)) io.print(style.dim("  opened in your browser"));
  else io.print(`  open it in a browser: ${url}`);
  return { action: "accept", content: {} };
}

/** A sampling request: show it, then approve once, for the rest of the session, or deny. */
export async function askSampling(
  server: string,
  lines: readonly string[],
  maxTokens: number,
  io: TerminalPrompter,
): Promise<"once" | "always" | "deny"> {
  const { style } = io;
  io.print(
    `${style.yellow("◆")} ${style.bold(server)} asks the model for a completion (sampling, up to ${maxTokens} tokens)`,
  );
  for (const line of lines) io.print(`  ${style.dim(line)}`);
  const pick = await choose(
    io,
    `${style.yellow("?")} let the model answer? [y]es once · [a]lways for ${server} this session · [n]o › `,
    // Spending the user's tokens takes an explicit yes: Enter denies, like a permission ask.
    { deny: ["n", "no"], once: ["y", "yes"], always: ["a", "always"] },
  );
  return pick ?? "deny";
}
