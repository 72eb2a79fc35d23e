/** A short unified diff for write/edit results: enough to confirm the change, never the whole file. */
import { structuredPatch } from "diff";

export function shortDiff(label: string, before: string, after: string, maxLines = 60): string {
  const patch = structuredPatch(label, label, before, after, undefined, undefined, { context: 2 });
  const out: string[] = [];
  let omitted = 0;
  for (const hunk of patch.hunks) {
    const lines = [`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`, ...hunk.lines];
    for (const line of lines) {
      if (out.length < maxLines) out.push(line.length > 300 ? `${line.slice(0, 300)}…` : line);
      else omitted++;
    }
  }
  if (omitted > 0) out.push(`… ${omitted} more diff lines`);
  return out.join("\n");
}
