/**
 * One way out for every command. SIGINT, SIGTERM and SIGHUP set the exit code
 * (128 + signal number) first, wait briefly for what must still reach the
 * servers (`settleBeforeTeardown`), then close every mounted server's process group
 * (end stdin, grace, SIGTERM, SIGKILL: a signal means the user wants out, so
 * each wait is short) and whatever else registered a closer, then exit. A
 * second signal exits at once; the endpoint's exit hook SIGKILLs the groups.
 * A closed stdout (`indusr call … | head`) ends the command the same quiet way.
 */
const SIGNAL_NUMBERS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;
type HandledSignal = keyof typeof SIGNAL_NUMBERS;

/** Each shutdown wait after a signal: stdin end → this → SIGTERM → this → SIGKILL. */
const SIGNAL_GRACE_MS = 1_000;
/** However teardown goes, the process is gone after this. */
const SIGNAL_BUDGET_MS = 2_500;

/** How long a signal's teardown waits for what must reach the servers before they close. */
const SETTLE_MS = 1_000;

const closers = new Set<() => Promise<unknown>>();
const settlers = new Set<() => Promise<unknown>>();
let installed = false;
let ending: Promise<never> | undefined;
let signalled: ((signal: HandledSignal) => void) | undefined;
const firstSignal = new Promise<HandledSignal>((resolve) => {
  signalled = resolve;
});

/** Run `close` on teardown too (HTTP sessions, the gateway); returns an unregister. */
export function onTeardown(close: () => Promise<unknown>): () => void {
  closers.add(close);
  return () => closers.delete(close);
}

/**
 * Wait (briefly) for `settle` before a signal's teardown closes anything: an
 * aborted call's last word to its server (a task's `tasks/cancel`) gets there
 * first. Returns an unregister.
 */
export function settleBeforeTeardown(settle: () => Promise<unknown>): () => void {
  settlers.add(settle);
  return () => settlers.delete(settle);
}

/** Resolves with the first signal received (the gateway stops serving on it). */
export function whenSignalled(): Promise<HandledSignal> {
  return firstSignal;
}

function sleep(ms: number): Promise<void> {
  // Ref'd on purpose: teardown must finish before Node may call the loop empty.
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Close everything and exit with `code`; later calls share the first. */
export function endProcess(code: number): Promise<never> {
  process.exitCode ??= code;
  ending ??= (async () => {
    const budget = sleep(SIGNAL_BUDGET_MS);
    await Promise.race([Promise.allSettled([...settlers].map((settle) => settle())), sleep(SETTLE_MS)]);
    const closing = Promise.allSettled([
      // Loaded here, not up front: `mcp add` and friends never pay for the endpoint.
      import("@indus/endpoint").then((endpoint) => endpoint.closeAllServerProcesses({ graceMs: SIGNAL_GRACE_MS })),
      ...[...closers].map((close) => close()),
    ]);
    await Promise.race([closing, budget]);
    process.exit(code);
  })();
  return ending;
}

/**
 * Record the command's exit code as soon as it is known, before its teardown
 * starts; a signal's 128+n stands over it.
 */
export function setExitCode(code: number): void {
  if (signalCode === undefined) process.exitCode = code;
}

let signalCode: number | undefined;

/** Signals a command handles itself for now (the agent: Ctrl-C stops a turn), with how many handlers. */
const handedOver = new Map<HandledSignal, number>();

/**
 * `signals` as the agent gets them: while it listens for a signal, that signal
 * is its to handle (this module only records the exit code and shortens the
 * servers' shutdown, see `onSignal`); when it stops listening, the signal is
 * ours again.
 */
export function handOverSignals(signals: Pick<NodeJS.Process, "on" | "off">): Pick<NodeJS.Process, "on" | "off"> {
  const count = (event: string | symbol, by: number) => {
    if (!(ALL_SIGNALS as readonly (string | symbol)[]).includes(event)) return;
    const signal = event as HandledSignal;
    handedOver.set(signal, Math.max(0, (handedOver.get(signal) ?? 0) + by));
  };
  const view = {
    on(event: string | symbol, listener: (...args: unknown[]) => void) {
      count(event, 1);
      signals.on(event as NodeJS.Signals, listener);
      return view;
    },
    off(event: string | symbol, listener: (...args: unknown[]) => void) {
      count(event, -1);
      signals.off(event, listener);
      return view;
    },
  };
  return view as unknown as Pick<NodeJS.Process, "on" | "off">;
}

function onSignal(signal: HandledSignal): void {
  const code = 128 + SIGNAL_NUMBERS[signal];
  if (ending) {
    process.exit(code);
  }
  process.exitCode = code;
  signalCode = code;
  signalled?.(signal);
  if ((handedOver.get(signal) ?? 0) > 0) {
    // The command winds down itself; its servers get the short signal grace meanwhile.
    void import("@indus/endpoint").then((endpoint) => endpoint.closeAllServerProcesses({ graceMs: SIGNAL_GRACE_MS }));
    return;
  }
  void endProcess(code);
}

function isBrokenPipe(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === "EPIPE";
}

export const ALL_SIGNALS: readonly HandledSignal[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/**
 * Install the signal handlers and the quiet EPIPE exit (once per process).
 * A command that handles a signal itself says so through `handOverSignals`.
 */
export function installTeardown(signals: readonly HandledSignal[] = ALL_SIGNALS): void {
  if (installed) return;
  installed = true;
  for (const signal of signals) process.on(signal, () => onSignal(signal));
  process.stdout.on("error", (error) => {
    if (isBrokenPipe(error)) void endProcess(typeof process.exitCode === "number" ? process.exitCode : 0);
    else throw error;
  });
  process.stderr.on("error", () => undefined);
}
