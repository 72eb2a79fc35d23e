/**
 * Server logs, one folder per run: `<root>/<ISO time>-<pid>/<server>.log`, so
 * runs, sessions and projects never share a file. The newest `KEEP_RUNS` runs
 * are kept; older run folders are removed when a new run starts.
 */
import fs from "node:fs";
import path from "node:path";

export const KEEP_RUNS = 20;
const RUN_DIR = /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z-\d+$/;

/** The folder this run's server logs go to (created when a server first writes). */
export function startRunLogs(root: string, now = new Date()): string {
  pruneRuns(root, KEEP_RUNS - 1);
  return path.join(root, `${now.toISOString().replace(/[:.]/g, "-")}-${process.pid}`);
}

/** Run folders under `root`, oldest first (the names sort by time). */
export function runDirs(root: string): string[] {
  let entries: string[];
  try {
    entries = fs.readdirSync(root);
  } catch {
    return [];
  }
  return entries
    .filter((name) => RUN_DIR.test(name))
    .sort()
    .map((name) => path.join(root, name));
}

function pruneRuns(root: string, keep: number): void {
  const runs = runDirs(root);
  for (const dir of runs.slice(0, Math.max(0, runs.length - keep))) fs.rmSync(dir, { recursive: true, force: true });
}

/** Every log of `server`, oldest first: a pre-run-folder `<root>/<server>.log`, then each run's. */
export function serverLogs(root: string, server: string): string[] {
  const legacy = path.join(root, `${server}.log`);
  const files = fs.existsSync(legacy) ? [legacy] : [];
  for (const dir of runDirs(root)) {
    const file = path.join(dir, `${server}.log`);
    if (fs.existsSync(file)) files.push(file);
  }
  return files;
}

/** Servers that have a log under `root`. */
export function loggedServers(root: string): string[] {
  const names = new Set<string>();
  const collect = (dir: string) => {
    try {
      for (const file of fs.readdirSync(dir)) if (file.endsWith(".log")) names.add(file.slice(0, -4));
    } catch {
      // Not there: nothing logged.
    }
  };
  collect(root);
  for (const dir of runDirs(root)) collect(dir);
  return [...names].sort();
}
