/**
 * Prompt history across sessions: `~/.indusvx/history`, one prompt a line,
 * newest last on disk and first for readline. Losing it is never an error.
 */
import fs from "node:fs";
import path from "node:path";

export const HISTORY_LIMIT = 500;

export function historyFile(home: string): string {
  return path.join(home, ".indusvx", "history");
}

export function loadHistory(file: string): string[] {
  try {
    const lines = fs
      .readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => line.trim().length > 0);
    return lines.slice(-HISTORY_LIMIT).reverse();
  } catch {
    return [];
  }
}

export function appendHistory(file: string, line: string): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.appendFileSync(file, `${line.replace(/\n/g, " ")}\n`, { mode: 0o600 });
  } catch {
    /* history is a convenience */
  }
}
