/**
 * Child processes a test awaits with no deadline of its own: Jest's per-test
 * ceiling is the only guard (an own deadline shorter than it fails a correct
 * run on a starved machine). A child still running when its test ends (the
 * test timed out) is killed then with all it started, so nothing outlives the
 * file or takes the next test's CPU; the pending wait names it with its output.
 */
import type { ChildProcess } from "node:child_process";
import { descendantsOf, waitFor } from "@indus/testkit";

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

interface Watched {
  exit?: Exit;
  spawnError?: Error;
}

const running = new Set<ChildProcess>();
const watched = new WeakMap<ChildProcess, Watched>();

afterEach(() => {
  for (const child of running) killTree(child);
  running.clear();
});

/** SIGKILL to `child` and everything it started (its servers run in process groups of their own). */
function killTree(child: ChildProcess): void {
  const pids = child.pid === undefined ? [] : [child.pid, ...descendantsOf(child.pid).map((row) => row.pid)];
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      /* already gone */
    }
  }
}

/** `child` (just spawned), killed when the test that started it ends while it still runs. */
export function tracked<T extends ChildProcess>(child: T): T {
  const state: Watched = {};
  watched.set(child, state);
  running.add(child);
  child.once("error", (error) => (state.spawnError = error));
  child.once("close", (code, signal) => {
    state.exit = { code, signal };
    running.delete(child);
  });
  return child;
}

/**
 * Resolves when a `tracked` child has closed. While it runs, the wait is
 * named `what` and reports `output()` (its stdout and stderr so far, say),
 * which a timed-out test prints; a spawn error rejects at once.
 */
export async function exited(child: ChildProcess, what: string, output: () => string): Promise<Exit> {
  const state = watched.get(child);
  if (state === undefined) throw new Error(`${what}: the child is not tracked`);
  return waitFor(
    what,
    () => {
      if (state.exit) return state.exit;
      throw new Error(output());
    },
    { failure: () => (state.spawnError ? `spawn failed: ${state.spawnError.message}` : undefined) },
  );
}
