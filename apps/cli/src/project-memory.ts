/**
 * The `memory` card's notes, kept per project in `<cwd>/.indusvx/memory.md`,
 * so what the agent noted in one session is there in the next. A plain
 * markdown file the user can read and edit; written atomically.
 */
import fs from "node:fs/promises";
import path from "node:path";
import type { MemoryStore } from "@indus/deck";

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
    await fs.mkdir(path.dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.tmp`;
    await fs.writeFile(temp, text.length === 0 || text.endsWith("\n") ? text : `${text}\n`);
    await fs.rename(temp, this.file);
  }

  async append(text: string): Promise<void> {
    const current = await this.read();
    await this.replace(current === "" ? text : `${current.replace(/\n?$/, "\n")}${text}`);
  }
}
