/**
 * What `indusr call` shows on stderr while a call runs, so a long call is
 * visibly alive: the server's progress, or, for a call the server runs as a
 * task, the task's id and each status and message it moves through (the
 * task's progress is its status; Ctrl-C cancels it on the server).
 */
import type { RunOptions, TaskView, ToolProgress } from "@indus/contract";

export function callProgress(write: (line: string) => void): Pick<RunOptions, "onProgress" | "onTask"> {
  let task: TaskView | undefined;
  return {
    onTask: (view) => {
      task = view;
      write(`indusr: task ${view.taskId} ${view.status}${view.statusMessage ? `: ${view.statusMessage}` : ""}`);
    },
    onProgress: (progress) => {
      if (task === undefined) write(`indusr: progress ${progressText(progress)}`);
    },
  };
}

function progressText({ progress, total, message }: ToolProgress): string {
  const count = total === undefined ? String(progress) : `${progress}/${total}`;
  return message ? `${count}: ${message}` : count;
}
