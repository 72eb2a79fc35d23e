/**
 * The checkpoint wrapper: before `write` or `edit` changes a file, the file's
 * current bytes (or its absence) are filed with the injected checkpoint store
 * under the active transcript node, so the change can be rewound. First seen
 * wins per (node, path), here as well as in the store; reading the prior
 * content is best effort and never blocks the write. Without a store the
 * capability is returned as is (the very same object).
 */
import type { JsonSchema, ToolResult } from "@indus/contract";
import type { Capability, Card, CheckpointStore, ToolContext } from "./vocabulary";
import { resolvePath } from "./paths";

export const CHECKPOINTED_TOOLS: readonly string[] = Object.freeze(["write", "edit"]);

/** (node, path) pairs already filed, shared by every wrapper over one store. */
const filed = new WeakMap<CheckpointStore, Set<string>>();

export class CheckpointingCard implements Card {
  constructor(
    readonly inner: Capability,
    private readonly store: CheckpointStore,
  ) {}

  get name(): string {
    return this.inner.name;
  }
  get label(): string {
    return this.inner.label;
  }
  get description(): string {
    return this.inner.description;
  }
  get parameters(): JsonSchema {
    return this.inner.parameters;
  }
  get readOnly(): boolean {
    return this.inner.readOnly;
  }

  async run(input: unknown, ctx: ToolContext): Promise<ToolResult> {
    await this.capture(input, ctx);
    return this.inner.run(input, ctx);
  }

  private async capture(input: unknown, ctx: ToolContext): Promise<void> {
    if (typeof input !== "object" || input === null) return;
    const bag = input as Record<string, unknown>;
    const raw = bag.path ?? bag.file_path ?? bag.filePath;
    if (typeof raw !== "string" || raw.trim() === "") return;
    const absolute = resolvePath(ctx.cwd, raw);
    let node: string;
    try {
      node = this.store.activeNode();
    } catch {
      return;
    }
    let seen = filed.get(this.store);
    if (!seen) filed.set(this.store, (seen = new Set()));
    const key = `${node}\u0000${absolute}`;
    if (seen.has(key)) return;
    let previous: Uint8Array | null;
    try {
      const stat = await ctx.fs.stat(absolute);
      if (stat?.isDirectory) return;
      previous = stat === null ? null : await ctx.fs.readFile(absolute);
    } catch {
      return; // unreadable: the write still proceeds, unrecorded
    }
    try {
      await this.store.record(node, absolute, previous);
      seen.add(key);
    } catch {
      // best effort: a failing store never blocks the edit
    }
  }
}

export function maybeWrapCheckpoint(cap: Capability, store: CheckpointStore | undefined): Capability {
  if (store === undefined || !CHECKPOINTED_TOOLS.includes(cap.name)) return cap;
  return new CheckpointingCard(cap, store);
}
