/**
 * The session transcript: `<sessionDir>/<id>.jsonl`, one JSON object a line,
 * appended synchronously so a crash or a kill loses nothing already said.
 * It records the session header, every message exactly as sent to the model
 * (so a session could be replayed), tool-result metadata, plans and results.
 * Spilled tool results and plans live beside it in `<sessionDir>/<id>/`.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** Sortable, unique: `20250101-120000-1a2b3c`. */
export function newSessionId(now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
  return `${stamp}-${crypto.randomBytes(3).toString("hex")}`;
}

export class Transcript {
  readonly file: string;
  /** Per-session folder for spilled results and plans. */
  readonly dir: string;
  private fd: number | undefined;
  private failed = false;

  constructor(
    sessionDir: string,
    readonly sessionId: string,
    private readonly onError: (message: string) => void = () => undefined,
  ) {
    this.file = path.join(sessionDir, `${sessionId}.jsonl`);
    this.dir = path.join(sessionDir, sessionId);
  }

  append(entry: Record<string, unknown>): void {
    if (this.failed) return;
    try {
      if (this.fd === undefined) {
        fs.mkdirSync(path.dirname(this.file), { recursive: true });
        this.fd = fs.openSync(this.file, "a", 0o600);
      }
      fs.writeSync(this.fd, `${JSON.stringify({ ts: new Date().toISOString(), ...entry })}\n`);
    } catch (error) {
      // A full disk or a read-only folder must not end the session; say it once.
      this.failed = true;
      this.onError(`cannot write the transcript ${this.file}: ${(error as Error).message}`);
    }
  }

  close(): void {
    if (this.fd !== undefined) {
      try {
        fs.closeSync(this.fd);
      } catch {
        /* already closed */
      }
      this.fd = undefined;
    }
  }
}
