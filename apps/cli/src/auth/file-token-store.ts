/**
 * The CLI's `TokenStore`: one JSON file per server under the user's state
 * folder (`$XDG_STATE_HOME/indusr/auth/<server>.json`, else
 * `~/.local/state/indusr/auth/`), readable by the user only (0600 in a 0700
 * folder), replaced atomically (write a private temp file, then rename) so a
 * reader never sees half a token and a crash never leaves one.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { SERVER_ID_PATTERN, type StoredCredentials, type TokenStore } from "@indus/contract";

/** `$XDG_STATE_HOME/indusr/auth`, else `~/.local/state/indusr/auth`. */
export function defaultAuthDir(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.HOME && env.HOME.length > 0 ? env.HOME : os.homedir();
  const state =
    env.XDG_STATE_HOME && env.XDG_STATE_HOME.length > 0 ? env.XDG_STATE_HOME : path.join(home, ".local", "state");
  return path.join(state, "indusr", "auth");
}

export class FileTokenStore implements TokenStore {
  constructor(readonly dir: string) {}

  /** The file holding `server`'s credentials (server ids are safe file names by their grammar). */
  fileOf(server: string): string {
    if (!SERVER_ID_PATTERN.test(server)) throw new Error(`"${server}" is not a server id`);
    return path.join(this.dir, `${server}.json`);
  }

  async load(server: string): Promise<StoredCredentials | undefined> {
    let text: string;
    try {
      text = await fs.readFile(this.fileOf(server), "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    try {
      const value = JSON.parse(text) as unknown;
      const serverUrl = (value as { serverUrl?: unknown } | null)?.serverUrl;
      return typeof serverUrl === "string" ? (value as StoredCredentials) : undefined;
    } catch {
      // A damaged file is no sign-in; the next sign-in replaces it.
      return undefined;
    }
  }

  async save(server: string, credentials: StoredCredentials): Promise<void> {
    const file = this.fileOf(server);
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
    try {
      await fs.writeFile(temp, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600, flag: "wx" });
      await fs.rename(temp, file);
    } catch (error) {
      await fs.rm(temp, { force: true });
      throw error;
    }
  }

  async remove(server: string): Promise<boolean> {
    try {
      await fs.unlink(this.fileOf(server));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw error;
    }
  }
}
