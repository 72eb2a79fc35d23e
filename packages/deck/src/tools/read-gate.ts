/**
 * The read-before-edit gate shared by `write` and `edit`: an existing file may
 * only be changed after it was read this session and while it is unchanged
 * on disk since, so the model never clobbers content it has not seen.
 */
import type { ReadStateHandle, ToolContext } from "../vocabulary";
import { matchesRecord } from "../read-state";
import { sessionOf } from "../session";
import { displayPath } from "../paths";

/** The handle injected at build time wins; otherwise the session's. */
export function readStateFor(injected: ReadStateHandle | undefined, ctx: ToolContext): ReadStateHandle {
  return injected ?? sessionOf(ctx).readState;
}

/** A refusal message, or undefined when the change may go ahead. */
export function gateRefusal(
  state: ReadStateHandle,
  ctx: ToolContext,
  change: { readonly absolute: string; readonly now: { mtimeMs: number; size: number }; readonly verb: string },
): string | undefined {
  const { absolute, now, verb } = change;
  const record = state.get(absolute);
  const shown = displayPath(ctx.cwd, absolute);
  if (record === undefined) {
    return `refusing to ${verb} ${shown}: it exists and has not been read this session. Read it first with the read tool.`;
  }
  if (!matchesRecord(record, now)) {
    return `refusing to ${verb} ${shown}: it changed on disk since it was last read (now ${now.size} bytes, modified ${new Date(now.mtimeMs).toISOString()}). Read it again first.`;
  }
  return undefined;
}

/** Records the file as seen after this tool wrote it, so follow-up edits pass the gate. */
export async function recordAfterWrite(state: ReadStateHandle, ctx: ToolContext, absolute: string): Promise<void> {
  const after = await ctx.fs.stat(absolute);
  if (after) state.record(absolute, { mtimeMs: after.mtimeMs, size: after.size });
}
