/**
 * Per-session state the built-ins share: the read-state gate, the checklist
 * behind `todo_read`/`todo_set`, and the `process` table. A deck's runtime box
 * mints one base context per deck and binds every per-call context to the same
 * session, so one store serves a whole session and two decks never share one.
 */
import type { ReadStateHandle, ToolContext } from "./vocabulary";
import { MemoryReadState } from "./read-state";
import { ProcessTable } from "./tools/process-table";
import type { ChecklistItem } from "./checklist";

export class DeckSession {
  readonly readState: ReadStateHandle;
  checklist: readonly ChecklistItem[] = [];
  private table: ProcessTable | undefined;

  constructor(readState?: ReadStateHandle) {
    this.readState = readState ?? new MemoryReadState();
  }

  /** The `process` tool's table, created on first use. */
  processes(): ProcessTable {
    this.table ??= new ProcessTable({ maxLines: 2_000, graceMs: 3_000 });
    return this.table;
  }

  /** Stops every background process the session started. */
  async dispose(): Promise<void> {
    await this.table?.stopAll();
  }
}

const sessions = new WeakMap<object, DeckSession>();

/** The session a context belongs to; an unbound context gets its own on first use. */
export function sessionOf(ctx: ToolContext): DeckSession {
  let session = sessions.get(ctx);
  if (session === undefined) {
    session = new DeckSession();
    sessions.set(ctx, session);
  }
  return session;
}

/** Ties a context to a session (the deck box does this for every call). */
export function bindSession<T extends ToolContext>(ctx: T, session: DeckSession): T {
  sessions.set(ctx, session);
  return ctx;
}
