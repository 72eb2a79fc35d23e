/** Saves a file's prior content before a write, for a later rewind. */
export interface CheckpointStore {
  /** The transcript node writes are filed under right now. */
  activeNode(): string;
  /** `previous === null` records that the file did not exist. First-seen wins per (node, path). */
  record(node: string, path: string, previous: Uint8Array | null): void | Promise<void>;
}
