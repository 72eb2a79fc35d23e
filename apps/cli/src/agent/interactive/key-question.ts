/**
 * Questions answered with one key (`[y]es · [a]lways · [n]o`): the key
 * answers at once, no Enter, and anything that is not one of the offered keys
 * (Enter included) asks again, saying which keys answer. Nothing typed after
 * the answer is swallowed into it (the old line prompt turned `a` and the
 * next prompt into one refused answer).
 */
import readline from "node:readline";

export interface KeyOption<T> {
  /** One lower-case character; the upper-case one answers too. */
  readonly key: string;
  readonly value: T;
}

/** The subset of a readline keypress this reads. */
export interface Keypress {
  readonly name?: string;
  readonly sequence?: string;
  readonly ctrl?: boolean;
  readonly meta?: boolean;
}

/** The option a keypress picks; none: ask again. */
export function pickKey<T>(options: readonly KeyOption<T>[], key: Keypress | undefined): KeyOption<T> | undefined {
  if (!key || key.ctrl || key.meta) return undefined;
  const typed = (key.sequence ?? key.name ?? "").toLowerCase();
  return typed.length === 1 ? options.find((option) => option.key === typed) : undefined;
}

export function isInterrupt(key: Keypress | undefined): boolean {
  return key?.ctrl === true && key.name === "c";
}

/** "press y, a or n". */
export function keysHint(options: readonly KeyOption<unknown>[]): string {
  const keys = options.map((o) => o.key);
  return `press ${keys.length > 1 ? `${keys.slice(0, -1).join(", ")} or ${keys.at(-1)}` : keys[0]}`;
}

export interface RawKeyIo {
  readonly input: NodeJS.ReadStream | NodeJS.ReadableStream;
  readonly output: NodeJS.WritableStream;
}

/**
 * Ask on a terminal nothing else is reading (print mode, before the session
 * starts): raw mode for the question only. Undefined on Ctrl-C or abort.
 */
export function askKey<T>(
  io: RawKeyIo,
  question: string,
  options: readonly KeyOption<T>[],
  signal?: AbortSignal,
): Promise<T | undefined> {
  const input = io.input as NodeJS.ReadStream;
  return new Promise((resolve) => {
    const wasRaw = input.isRaw === true;
    readline.emitKeypressEvents(input);
    if (input.isTTY) input.setRawMode(true);
    input.resume();
    const finish = (value: T | undefined, echo: string) => {
      input.off("keypress", onKey);
      signal?.removeEventListener("abort", onAbort);
      if (input.isTTY) input.setRawMode(wasRaw);
      input.pause();
      io.output.write(`${echo}\n`);
      resolve(value);
    };
    const onAbort = () => finish(undefined, "");
    const onKey = (_text: string | undefined, key: Keypress | undefined) => {
      if (isInterrupt(key)) return finish(undefined, "^C");
      const picked = pickKey(options, key);
      if (picked) return finish(picked.value, picked.key);
      io.output.write(`\n  ✗ ${keysHint(options)}\n${question}`);
    };
    if (signal?.aborted) return resolve(undefined);
    signal?.addEventListener("abort", onAbort, { once: true });
    input.on("keypress", onKey);
    io.output.write(question);
  });
}
