/** Process-table checks for "no child survives" assertions. */
import { execFileSync } from "node:child_process";

export interface PsRow {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  readonly stat: string;
  readonly command: string;
}

export function processTable(): PsRow[] {
  const out = execFileSync("ps", ["-eo", "pid=,ppid=,pgid=,stat=,args="], { encoding: "utf8" });
  return out
    .split("\n")
    .map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/))
    .filter((m): m is RegExpMatchArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), pgid: Number(m[3]), stat: m[4]!, command: m[5]! }));
}

/** Processes (zombies included) in any of these process groups. */
export function inGroups(pgids: Iterable<number>): PsRow[] {
  const wanted = new Set(pgids);
  return processTable().filter((row) => wanted.has(row.pgid));
}

/** Non-zombie processes in any of these groups (zombies are init's to reap). */
export function liveInGroups(pgids: Iterable<number>): PsRow[] {
  return inGroups(pgids).filter((row) => !row.stat.startsWith("Z"));
}

/** Every descendant of `pid` (children, grandchildren, ...). */
export function descendantsOf(pid: number): PsRow[] {
  const table = processTable();
  const out: PsRow[] = [];
  const frontier = [pid];
  while (frontier.length > 0) {
    const parent = frontier.pop()!;
    for (const row of table) {
      if (row.ppid === parent) {
        out.push(row);
        frontier.push(row.pid);
      }
    }
  }
  return out;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
