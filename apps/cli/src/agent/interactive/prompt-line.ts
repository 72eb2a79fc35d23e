/**
 * The one prompt line, on node:readline: the main prompt with history and
 * Tab completion, and questions asked on it (permissions, plans, servers'
 * forms), one at a time even mid-turn. While a turn runs readline keeps
 * reading (so Ctrl-C arrives as a keypress) but its echo is muted.
 */
import readline from "node:readline";
import { Writable } from "node:stream";
import { HISTORY_LIMIT } from "./history";
import type { MentionCompleter } from "./mentions";
import type { TerminalView } from "./terminal-view";
import { isInterrupt, keysHint, pickKey, type KeyOption, type Keypress } from "./key-question";

/** readline's output: forwards to the terminal unless muted (echo off during a turn). */
class MutableOutput extends Writable {
  muted = false;
  readonly isTTY = true;

  constructor(private readonly target: NodeJS.WriteStream) {
    super();
    target.on("resize", () => this.emit("resize"));
  }

  get columns(): number {
    return this.target.columns ?? 80;
  }

  get rows(): number {
    return this.target.rows ?? 24;
  }

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    // Synchronous hand-off keeps readline's writes in order with the renderer's.
    if (!this.muted) this.target.write(chunk);
    callback();
  }
}

export interface PromptLineOptions {
  readonly input: NodeJS.ReadableStream;
  readonly out: NodeJS.WriteStream;
  readonly view: TerminalView;
  readonly mainPrompt: string;
  readonly completer: MentionCompleter;
  readonly history: string[];
}

export class PromptLine {
  readonly rl: readline.Interface;
  readonly mainPrompt: string;
  private readonly output: MutableOutput;
  private readonly input: NodeJS.ReadableStream;
  private readonly view: TerminalView;
  /** A task runs: the echo goes back to muted once a question is answered. */
  private busy: () => boolean = () => false;
  private pendingQuestion: ((line: string | undefined) => void) | undefined;
  /** Questions take turns on the one prompt line (a server may ask while a permission ask waits). */
  private asking: Promise<unknown> = Promise.resolve();

  constructor(options: PromptLineOptions) {
    this.output = new MutableOutput(options.out);
    this.input = options.input;
    this.view = options.view;
    this.mainPrompt = options.mainPrompt;
    const completer = options.completer;
    this.rl = readline.createInterface({
      input: options.input,
      output: this.output,
      terminal: true,
      completer: (line: string, callback: (error: null, result: [string[], string]) => void) => {
        completer.complete(line).then(
          (result) => callback(null, result),
          () => callback(null, [[], line]),
        );
      },
      prompt: options.mainPrompt,
      history: options.history,
      historySize: HISTORY_LIMIT,
      removeHistoryDuplicates: true,
    });
  }

  /** A question waits for its answer on the line. */
  get questionPending(): boolean {
    return this.pendingQuestion !== undefined;
  }

  /** Hand a line (or an interrupt, `undefined`) to the pending question; false when none waits. */
  answer(line: string | undefined): boolean {
    if (!this.pendingQuestion) return false;
    this.pendingQuestion(line);
    return true;
  }

  /**
   * Ask one question on the prompt line, even mid-turn. `undefined` when
   * interrupted. `spaced`: a blank line first (a form's fields follow one
   * another without).
   */
  ask(question: string, signal: AbortSignal, spaced = true): Promise<string | undefined> {
    const next = this.asking.then(() => this.askNow(question, signal, spaced));
    this.asking = next;
    return next;
  }

  /**
   * Ask a question answered by one key (see `key-question.ts`): the key
   * answers at once; any other key, Enter included, asks again. `undefined`
   * when interrupted.
   */
  askKey<T>(question: string, options: readonly KeyOption<T>[], signal: AbortSignal): Promise<T | undefined> {
    const next = this.asking.then(() => this.askKeyNow(question, options, signal));
    this.asking = next;
    return next;
  }

  /** Who says whether a task runs (the runner is made after the line). */
  followBusy(busy: () => boolean): void {
    this.busy = busy;
  }

  mute(muted: boolean): void {
    this.output.muted = muted;
  }

  /** Drop what is typed on the line (Ctrl-E, Ctrl-U). */
  clearInput(): void {
    this.rl.write(null, { ctrl: true, name: "e" });
    this.rl.write(null, { ctrl: true, name: "u" });
  }

  private askNow(question: string, signal: AbortSignal, spaced: boolean): Promise<string | undefined> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve(undefined);
      const finish = (line: string | undefined) => {
        signal.removeEventListener("abort", onAbort);
        // An answer is not a prompt: keep it out of Up-arrow history.
        const kept = (this.rl as unknown as { history?: string[] }).history;
        if (line !== undefined && kept && kept[0] === line) kept.shift();
        this.pendingQuestion = undefined;
        this.rl.setPrompt(this.mainPrompt);
        this.output.muted = this.busy();
        resolve(line);
      };
      const onAbort = () => {
        this.view.line();
        finish(undefined);
      };
      signal.addEventListener("abort", onAbort, { once: true });
      this.pendingQuestion = finish;
      if (spaced) this.view.line();
      else this.view.freshLine();
      this.output.muted = false;
      this.clearInput();
      this.rl.setPrompt(question);
      this.rl.prompt(true);
    });
  }

  private askKeyNow<T>(
    question: string,
    options: readonly KeyOption<T>[],
    signal: AbortSignal,
  ): Promise<T | undefined> {
    return new Promise((resolve) => {
      if (signal.aborted) return resolve(undefined);
      // readline still reads the keys (Ctrl-C stays an interrupt); what it echoes is muted and cleared.
      const again = () => {
        this.clearInput();
        this.view.line(`  ✗ ${keysHint(options)}`);
        this.view.write(question);
      };
      const finish = (value: T | undefined, echo: string) => {
        this.input.off("keypress", onKey);
        signal.removeEventListener("abort", onAbort);
        this.pendingQuestion = undefined;
        this.clearInput();
        this.view.write(`${echo}\n`);
        this.output.muted = this.busy();
        resolve(value);
      };
      const onKey = (_text: string | undefined, key: Keypress | undefined) => {
        // Ctrl-C reaches the task runner as SIGINT, Enter as a line (handled below).
        if (isInterrupt(key) || key?.name === "return" || key?.name === "enter") return;
        const picked = pickKey(options, key);
        if (picked) finish(picked.value, picked.key);
        else again();
      };
      const onAbort = () => finish(undefined, "");
      this.pendingQuestion = (line) => (line === undefined ? finish(undefined, "") : again());
      signal.addEventListener("abort", onAbort, { once: true });
      this.view.line();
      this.output.muted = true;
      this.clearInput();
      this.view.write(question);
      this.input.on("keypress", onKey);
    });
  }
}
