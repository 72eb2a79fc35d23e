/** What `read` saw of a file, for the read-before-edit gate. */
export interface ReadRecord {
  readonly mtimeMs: number;
  readonly size: number;
}

/** Files read this session, keyed by absolute path. */
export interface ReadStateHandle {
  record(path: string, seen: ReadRecord): void;
  get(path: string): ReadRecord | undefined;
}
