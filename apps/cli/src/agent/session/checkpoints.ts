/**
 * The session's checkpoint store: `write` and `edit` file each file's prior
 * bytes (or its absence) under the prompt that is running, and `/rewind`
 * puts every file changed since a chosen prompt back as it was before it.
 * Kept in memory: a checkpoint outlives a turn, not the session.
 */
import fs from "node:fs";
import path from "node:path";
import type { CheckpointStore } from "@indus/deck";

export interface CheckpointNode {
  readonly id: string;
  /** 1-based prompt number in this session. */
  readonly index: number;
  readonly prompt: string;
  readonly files: ReadonlyMap<string, Uint8Array | null>;
}

export interface RewoundFile {
  readonly path: string;
  readonly action: "restored" | "deleted";
}

export class SessionCheckpoints implements CheckpointStore {
  private readonly nodes: { id: string; index: number; prompt: string; files: Map<string, Uint8Array | null> }[] = [];

  /** Start filing changes under a new prompt. */
  begin(prompt: string): string {
    const index = this.nodes.length + 1;
    const id = `prompt-${index}`;
    this.nodes.push({ id, index, prompt, files: new Map() });
    return id;
  }

  activeNode(): string {
    const node = this.nodes.at(-1);
    if (!node) throw new Error("no prompt is running");
    return node.id;
  }

  record(node: string, file: string, previous: Uint8Array | null): void {
    const target = this.nodes.find((n) => n.id === node);
    if (target && !target.files.has(file)) target.files.set(file, previous === null ? null : Uint8Array.from(previous));
  }

  /** Every prompt so far, oldest first. */
  list(): readonly CheckpointNode[] {
    return this.nodes;
  }

  /**
   * Put every file changed by prompt `index` or later back as it was before
   * that prompt (deleting files it created), and forget those checkpoints.
   */
  rewind(index: number): RewoundFile[] {
    const later = this.nodes.filter((n) => n.index >= index);
    const before = new Map<string, Uint8Array | null>();
    for (const node of later) for (const [file, bytes] of node.files) if (!before.has(file)) before.set(file, bytes);
    const done: RewoundFile[] = [];
    for (const [file, bytes] of before) {
      if (bytes === null) {
        fs.rmSync(file, { force: true });
        done.push({ path: file, action: "deleted" });
      } else {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, bytes);
        done.push({ path: file, action: "restored" });
      }
    }
    for (const node of later) node.files.clear();
    return done;
  }
}
