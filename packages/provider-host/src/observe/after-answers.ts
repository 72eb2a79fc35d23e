/**
 * Work on finished requests done right after the answers at hand were
 * written, not on their way out: an observer's `finished` is called before
 * the request's answer is sent, so whatever it does there the caller waits
 * for. `setImmediate` runs once the event loop's current I/O callbacks (and
 * the promise jobs they started, the answer's write among them) are done;
 * everything finished meanwhile is handled in one batch.
 */
export interface AfterAnswers<T> {
  add(item: T): void;
  /** Handles what waits now (a scrape, a close, the process's exit). */
  drain(): void;
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
      if (waiting.push(item) === 1) setImmediate(drain);
    },
    drain,
  };
}
