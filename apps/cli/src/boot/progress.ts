/**
 * Live connect progress on a terminal: one line per server (connecting, ready
 * with tool count and time, or failed with the reason), redrawn in place and
 * cleared when every server has settled. Off the terminal it prints nothing.
 */
import type { ServerProgress as DeckServerProgress } from "@indus/deck";

export type ServerProgress =
  | { readonly kind: "connecting"; readonly server: string }
  | { readonly kind: "ready"; readonly server: string; readonly toolCount: number; readonly ms: number }
  | { readonly kind: "failed"; readonly server: string; readonly reason: string; readonly ms: number };

export interface ProgressSink {
  update(event: ServerProgress): void;
  /** Erase the block; afterwards the terminal looks as before. */
  finish(): void;
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export const silentProgress: ProgressSink = { update() {}, finish() {} };

export function terminalProgress(stream: NodeJS.WriteStream, options: { color: boolean }): ProgressSink {
  const rows = new Map<string, ServerProgress>();
  let drawn = 0;
  let frame = 0;
  let finished = false;
  const paint = (code: string, text: string) => (options.color ? `\x1b[${code}m${text}\x1b[0m` : text);
  const width = () => Math.max(20, (stream.columns ?? 80) - 1);

  /** Glyph (colored) plus text cut to the terminal width, so a line never wraps. */
  const line = (row: ServerProgress): string => {
    const fit = (text: string) => (text.length > width() - 2 ? `${text.slice(0, width() - 3)}…` : text);
    switch (row.kind) {
      case "connecting":
        return `${paint("36", FRAMES[frame % FRAMES.length]!)} ${fit(`${row.server} connecting…`)}`;
      case "ready":
        return `${paint("32", "✓")} ${fit(`${row.server} ready · ${row.toolCount} tool${row.toolCount === 1 ? "" : "s"} · ${row.ms} ms`)}`;
      case "failed":
        return `${paint("31", "✗")} ${fit(`${row.server} failed · ${row.reason.split("\n")[0]}`)}`;
    }
  };

  const draw = () => {
    if (finished) return;
    let out = drawn > 0 ? `\x1b[${drawn}A` : "";
    for (const row of rows.values()) out += `\r\x1b[2K${line(row)}\n`;
    drawn = rows.size;
    stream.write(out);
  };

  const timer = setInterval(() => {
    frame += 1;
    if ([...rows.values()].some((row) => row.kind === "connecting")) draw();
  }, 100);
  timer.unref();

  return {
    update(event) {
      rows.set(event.server, event);
      draw();
    },
    finish() {
      if (finished) return;
      clearInterval(timer);
      if (drawn > 0) stream.write(`\x1b[${drawn}A\r\x1b[J`);
      finished = true;
      drawn = 0;
    },
  };
}

/** The deck's connect progress into a sink, noting each server's connect time in `connectMs`. */
export function progressFeed(sink: ProgressSink, connectMs: Map<string, number>): (p: DeckServerProgress) => void {
  return (p) => {
    if (p.phase === "ready") {
      connectMs.set(p.server, Math.round(p.elapsedMs));
      sink.update({ kind: "ready", server: p.server, toolCount: p.toolCount, ms: Math.round(p.elapsedMs) });
    } else if (p.phase === "faulted") {
      connectMs.set(p.server, Math.round(p.elapsedMs));
      sink.update({
        kind: "failed",
        server: p.server,
        reason: p.fault ? `${p.fault.kind}: ${p.fault.message}` : "failed",
        ms: Math.round(p.elapsedMs),
      });
    } else if (p.phase === "connecting" || p.phase === "idle") {
      sink.update({ kind: "connecting", server: p.server });
    }
  };
}
