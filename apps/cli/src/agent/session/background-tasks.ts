/**
 * Calls that became tasks (the Tasks extension) and ran past the session's
 * threshold: the turn goes on without them (the model is told the call runs
 * in the background) while each is followed to its end. `/tasks` lists them
 * and cancels one (`tasks/cancel` reaches its server); when one ends, the
 * user sees it at once and the model gets its result with the next prompt.
 */
import type { TaskView, ToolCall, ToolOutcome } from "@indus/contract";
import type { EventSink } from "../events";

/** Two minutes, as Claude Code backgrounds a long call. */
export const DEFAULT_BACKGROUND_AFTER_MS = 120_000;

export interface BackgroundTask {
  readonly n: number;
  readonly name: string;
  readonly started: number;
  /** The task as last seen (status, message). */
  readonly view: TaskView;
  readonly state: "running" | "completed" | "failed";
}

interface Entry {
  readonly n: number;
  readonly name: string;
  readonly started: number;
  /** The task as the call last reported it. */
  readonly view: () => TaskView;
  state: BackgroundTask["state"];
  readonly stop: AbortController;
}

export class BackgroundTasks {
  private next = 1;
  private readonly entries = new Map<number, Entry>();
  /** Results not yet given to the model. */
  private readonly unread: string[] = [];

  constructor(
    /** How long a task runs in the turn before it moves to the background. */
    readonly afterMs: number,
    private readonly emit: EventSink,
  ) {}

  /**
   * `call`, running as the task `view()` shows, goes on in the background;
   * `stop` cancels it. Returns its number (`/tasks cancel <n>`).
   */
  adopt(call: ToolCall, view: () => TaskView, running: Promise<ToolOutcome>, stop: AbortController): number {
    const entry: Entry = { n: this.next++, name: call.name, started: Date.now(), view, state: "running", stop };
    this.entries.set(entry.n, entry);
    this.emit({ type: "background_task", n: entry.n, name: entry.name, taskId: view().taskId, state: "started" });
    void running.then((outcome) => this.ended(entry, outcome));
    return entry.n;
  }

  list(): readonly BackgroundTask[] {
    return [...this.entries.values()].map(({ n, name, started, view, state }) => ({
      n,
      name,
      started,
      view: view(),
      state,
    }));
  }

  /** Cancel task `n` on its server; false when there is no such running task. */
  cancel(n: number): boolean {
    const entry = this.entries.get(n);
    if (entry?.state !== "running") return false;
    entry.stop.abort(new Error("cancelled with /tasks cancel"));
    return true;
  }

  /** Cancel every running task (the session ends). */
  stopAll(): void {
    for (const entry of this.entries.values()) if (entry.state === "running") entry.stop.abort();
  }

  /** The results of tasks that ended since the last call, for the model (each once). */
  takeResults(): readonly string[] {
    return this.unread.splice(0);
  }

  private ended(entry: Entry, outcome: ToolOutcome): void {
    const view = entry.view();
    entry.state = outcome.isError ? "failed" : "completed";
    const text = outcome.content
      .map((block) => (block.type === "text" ? block.text : JSON.stringify(block.value)))
      .join("\n");
    this.unread.push(
      `[Background task ${entry.n} (${entry.name}, task ${view.taskId} on ${view.server}) ${entry.state}:]\n${text}`,
    );
    this.emit({
      type: "background_task",
      n: entry.n,
      name: entry.name,
      taskId: view.taskId,
      state: entry.state,
      content: text,
    });
  }
}

/** `prompt` after the results of background tasks that ended since the last prompt (each given once). */
export function withBackgroundResults(prompt: string, background: BackgroundTasks | undefined): string {
  const results = background?.takeResults() ?? [];
  return results.length === 0 ? prompt : `${results.join("\n\n")}\n\n${prompt}`;
}
