/**
 * Work on finished requests done right after the answers at hand were
 * written, not on their way out: an observer's `finished` is called before
 * the request's answer is sent, so whatever it does there the caller waits
 * for. `setImmediate` runs once the event loop's current I/O callbacks (and
 * the promise jobs they started, the answer's write among them) are done;
 * everything finished meanwhile is handled in one batch. Every queue shares
 * one `setImmediate` a turn (the audit log and the metrics each took their
 * own per request).
 */
export interface AfterAnswers<T> {
  add(item: T): void;
  /** Handles what waits now (a scrape, a close, the process's exit). */
  drain(): void;
}

/** The drains of the queues that filled this turn, run by the one `setImmediate` pending. */
let due: (() => void)[] = [];

function runDue(): void {
  const drains = due;
  due = [];
  for (const drain of drains) drain();
}

export function afterAnswers<T>(handle: (items: readonly T[]) => void): AfterAnswers<T> {
  let waiting: T[] = [];
  const drain = () => {
    if (waiting.length === 0) return;
    const items = waiting;
    waiting = [];
    handle(items);
  };
  return {
    add(item) {
      if (waiting.push(item) !== 1) return;
      if (due.push(drain) === 1) setImmediate(runDue);
    },
    drain,
  };
}
