/**
 * `/tasks`: the calls running as tasks in the background (number, tool,
 * status, the server's task id, how long), and `/tasks cancel <n>`, which
 * cancels one on its server.
 */
import type { Style } from "../render";
import type { BackgroundTasks } from "../session/background-tasks";

export function tasksCommand(
  args: readonly string[],
  background: BackgroundTasks | undefined,
  print: (text: string) => void,
  style: Style,
): void {
  if (background === undefined) return print("Background tasks are not available here.");
  if (args[0] === "cancel") return cancelTask(args[1], background, print);
  const tasks = background.list();
  if (tasks.length === 0) {
    print(`No background tasks. A call its server runs as a task moves here after ${seconds(background.afterMs)}.`);
    return;
  }
  for (const task of tasks) {
    const status = task.state === "running" ? task.view.status : task.state;
    const message = task.view.statusMessage ? ` · ${task.view.statusMessage}` : "";
    const age = seconds(Date.now() - task.started);
    print(
      `${task.n}  ${style.bold(task.name)}  ${status}${message}  ${style.dim(`task ${task.view.taskId} · ${age}`)}`,
    );
  }
  print(style.dim("/tasks cancel <n> cancels a running one on its server"));
}

function cancelTask(which: string | undefined, background: BackgroundTasks, print: (text: string) => void): void {
  const n = Number(which);
  if (!Number.isInteger(n)) return print("Usage: /tasks cancel <n>  (/tasks lists them)");
  print(background.cancel(n) ? `Cancelling task ${n}…` : `No running background task ${n}.`);
}

function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}
