/**
 * Time a server spends waiting on its client: a question it asked
 * (elicitation, sampling, roots) is with a user filling in a form or a model
 * writing. A call's idle deadline does not count that time: the server cannot
 * answer the call before the client answers it, and a person may take minutes.
 * The call's total bound still holds.
 */
export class ClientWaits {
  private open = 0;
  private answered = 0;

  /** Runs `question`, counted as waiting on the client until it settles. */
  async during<T>(question: () => Promise<T>): Promise<T> {
    this.open += 1;
    try {
      return await question();
    } finally {
      this.open -= 1;
      this.answered = Date.now();
    }
  }

  /** The last moment the server was waiting on its client: now while a question is open. */
  lastWaitAt(now: number): number {
    return this.open > 0 ? now : this.answered;
  }
}
