/**
 * The `memory` card's notes, kept per project in `<cwd>/.indusvx/memory.md`,
 * so what the agent noted in one session is there in the next. A plain
 * markdown file the user can read and edit; changed under its lock and
 * written atomically, so two sessions noting at once keep both notes.
 */
import fs from "node:fs/promises";
import path from "node:path";
import type { MemoryStore } from "@indus/deck";
import { updateStateFile } from "@indus/state-file";

/** A project folder, not a private state folder: ordinary modes (the umask decides). */
const MODES = { mode: 0o666, dirMode: 0o777 } as const;

function withNewline(text: string): string {
  return text.length === 0 || text.endsWith("\n") ? text : `${text}\n`;
}

export function memoryFile(cwd: string): string {
  return path.join(cwd, ".indusvx", "memory.md");
}

export class ProjectMemory implements MemoryStore {
  constructor(readonly file: string) {}

  async read(): Promise<string> {
    try {
      return await fs.readFile(this.file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return "";
      throw error;
    }
  }

  async replace(text: string): Promise<void> {
    await updateStateFile(this.file, () => ({ text: withNewline(text), result: undefined }), MODES);
  }

  async append(text: string): Promise<void> {
    await updateStateFile(
      this.file,
      (current = "") => ({
        text: withNewline(current === "" ? text : `${current.replace(/\n?$/, "\n")}${text}`),
        result: undefined,
      }),
      MODES,
    );
  }
}
