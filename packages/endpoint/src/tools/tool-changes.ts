/**
 * What changed between two listings of one server's tools, keyed by the
 * server-side name, so subscribers can update without re-reading everything.
 */
import { sameJson, type RemoteTool } from "@indus/contract";

export interface ToolsChange {
  readonly added: readonly RemoteTool[];
  readonly changed: readonly RemoteTool[];
  /** The tools as they were before they went away. */
  readonly removed: readonly RemoteTool[];
  /** The whole new listing. */
  readonly tools: readonly RemoteTool[];
}

export type ToolsChangeListener = (change: ToolsChange) => void;

export function diffTools(before: readonly RemoteTool[], after: readonly RemoteTool[]): ToolsChange {
  const old = new Map(before.map((tool) => [tool.ref.name, tool]));
  const added: RemoteTool[] = [];
  const changed: RemoteTool[] = [];
  for (const tool of after) {
    const previous = old.get(tool.ref.name);
    if (!previous) added.push(tool);
    else if (!sameJson(previous.descriptor, tool.descriptor)) changed.push(tool);
    old.delete(tool.ref.name);
  }
  return { added, changed, removed: [...old.values()], tools: after };
}

export function isEmptyChange(change: ToolsChange): boolean {
  return change.added.length === 0 && change.changed.length === 0 && change.removed.length === 0;
}
