/**
 * What `read` saw, for the read-before-edit gate: an edit or overwrite of a
 * file the model has not read, or that changed on disk since, is refused.
 */
import type { ReadRecord, ReadStateHandle } from "./vocabulary";

/** The default read state: a per-deck map keyed by absolute path. */
export class MemoryReadState implements ReadStateHandle {
  private readonly seen = new Map<string, ReadRecord>();

  record(path: string, seen: ReadRecord): void {
    this.seen.set(path, { mtimeMs: seen.mtimeMs, size: seen.size });
  }

  get(path: string): ReadRecord | undefined {
    return this.seen.get(path);
  }
}

/** True when the file on disk is exactly what was read. */
export function matchesRecord(record: ReadRecord | undefined, now: { mtimeMs: number; size: number }): boolean {
  return record !== undefined && record.mtimeMs === now.mtimeMs && record.size === now.size;
}
