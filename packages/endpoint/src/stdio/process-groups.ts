/**
 * Process groups of the servers we spawned. Signalling a negative pid reaches
 * every process in the group, wrappers' grandchildren included. A host that
 * exits without closing its endpoints still takes its servers down with it:
 * one `exit` hook kills every group still on record.
 */
import fs from "node:fs";

/**
 * How a shutdown goes: `graceMs` caps each wait (shortening shutdowns already
 * under way); `promptly` sends SIGTERM with the stdin end instead of after the
 * first wait.
 */
export interface ShutdownPace {
  readonly graceMs?: number | undefined;
  readonly promptly?: boolean | undefined;
}

const liveGroups = new Set<number>();
/** How to close each group politely (its transport's shutdown), when one is known. */
const closers = new Map<number, (pace: ShutdownPace) => Promise<void>>();
let exitHookInstalled = false;

function killAllOnExit(): void {
  for (const pgid of liveGroups) signalGroup(pgid, "SIGKILL");
  liveGroups.clear();
}

export function rememberProcessGroup(pgid: number, close?: (pace: ShutdownPace) => Promise<void>): void {
  liveGroups.add(pgid);
  if (close) closers.set(pgid, close);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", killAllOnExit);
  }
}

export function forgetProcessGroup(pgid: number): void {
  liveGroups.delete(pgid);
  closers.delete(pgid);
}

/**
 * Close every server process this host spawned, whatever state its endpoint
 * is in (still connecting, mid-call, serving): end stdin, wait, SIGTERM, wait,
 * SIGKILL, paced by `pace`. For a host's signal handler, or a command that
 * is done with its servers: one call ends them all.
 */
export async function closeAllServerProcesses(pace: ShutdownPace = {}): Promise<void> {
  const closing = [...liveGroups].map((pgid) => {
    const close = closers.get(pgid);
    if (close) return close(pace).catch(() => undefined);
    signalGroup(pgid, "SIGKILL");
    return Promise.resolve();
  });
  await Promise.all(closing);
}

/** Process groups spawned by this host and not yet seen gone. */
export function liveProcessGroups(): readonly number[] {
  return [...liveGroups];
}

/**
 * True while a live process is in group `pgid`. Zombies do not count: once a
 * dead wrapper's children are reparented, reaping them is init's job, and some
 * inits (container runtimes) reap only every second or two.
 */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    // EPERM means it exists but is not ours to signal: still alive.
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  return hasLiveMember(pgid);
}

/** Scans /proc (Linux) for a non-zombie in the group; elsewhere trusts `kill(-pgid, 0)`. */
function hasLiveMember(pgid: number): boolean {
  let entries: string[];
  try {
    entries = fs.readdirSync("/proc");
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue;
    }
    // "pid (comm) state ppid pgrp ..."; comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pgid && fields[0] !== "Z" && fields[0] !== "X") return true;
  }
  return false;
}

/** Signal every process in group `pgid`; never throws. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // The group is already gone.
  }
}
