/**
 * Waiting for an event by polling, with no deadline of its own: a loaded
 * runner makes any own deadline a flake, so Jest's per-test ceiling is the
 * only guard. Each pending wait names what it waits for; the setup file
 * `report-pending-waits.ts` turns a wait still pending when a test ends (a
 * timed-out test) into "still waiting for: <what>", and stops its polling.
 *
 * It sleeps on `node:timers`' own `setTimeout`, never the global one: Jest's
 * fake timers replace the global, so a test that fakes the clock (to move a
 * product's poll or deadline itself) can still wait for an event, whichever
 * of the two it installed first.
 */
import { setTimeout as realTimeout } from "node:timers";

interface PendingWait {
  readonly what: string;
  /** The last thing the check said (its thrown message), for the report. */
  last?: string;
  abandoned: boolean;
}

export interface WaitOptions {
  /** Poll interval in ms (default 50). */
  readonly every?: number;
  /**
   * Ends the wait early when the event can no longer happen (the process
   * exited, the stream ended): returns the reason, or undefined to go on.
   */
  readonly failure?: () => string | undefined;
}

const PENDING = Symbol.for("@indus/testkit.pendingWaits");

function pending(): Set<PendingWait> {
  const holder = globalThis as { [PENDING]?: Set<PendingWait> };
  return (holder[PENDING] ??= new Set());
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Polls `check` until it returns something other than false, undefined or
 * null, and resolves with that. A
 * throwing check (an `expect` not yet met) counts as "not yet"; its message is
 * kept for the report. `what` names the event, as in "server log has 'ready'".
 */
export async function waitFor<T>(
  what: string,
  check: () => T | Promise<T>,
  options: WaitOptions = {},
): Promise<Exclude<T, false | null | undefined>> {
  const wait: PendingWait = { what, abandoned: false };
  pending().add(wait);
  try {
    for (;;) {
      const value = await attempt(wait, check);
      if (value !== undefined && value !== null && value !== false)
        return value as Exclude<T, false | null | undefined>;
      const failed = options.failure?.();
      if (failed !== undefined) throw new Error(`${what}: never happened, ${failed}`);
      await new Promise((resolve) => realTimeout(resolve, options.every ?? 50));
      if (wait.abandoned) await new Promise<never>(() => undefined);
    }
  } finally {
    pending().delete(wait);
  }
}

async function attempt<T>(wait: PendingWait, check: () => T | Promise<T>): Promise<T | undefined> {
  try {
    return await check();
  } catch (error) {
    wait.last = messageOf(error);
    return undefined;
  }
}

/**
 * Takes the waits still pending (a test that ended without its event) and
 * stops their polling; returns one line per wait for the failure message.
 */
export function abandonPendingWaits(): string[] {
  const waits = [...pending()];
  pending().clear();
  return waits.map((wait) => {
    wait.abandoned = true;
    return wait.last === undefined ? wait.what : `${wait.what} (last check: ${wait.last})`;
  });
}
