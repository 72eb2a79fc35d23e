/**
 * The CLI's `TokenStore`: one JSON file per server under the user's state
 * folder (`$XDG_STATE_HOME/indusr/auth/<server>.json`, else
 * `~/.local/state/indusr/auth/`), readable by the user only (0600 in a 0700
 * folder), changed under the file's lock and replaced atomically
 * (`@indus/state-file`), so a reader never sees half a token, a crash never
 * leaves one, and two processes refreshing or registering at once keep both.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { SERVER_ID_PATTERN, type StoredCredentials, type TokenStore } from "@indus/contract";
import { updateStateFile } from "@indus/state-file";

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
    return parseCredentials(text);
  }

  async save(server: string, credentials: StoredCredentials): Promise<void> {
    await this.update(server, () => credentials);
  }

  update(
    server: string,
    edit: (current: StoredCredentials | undefined) => StoredCredentials,
  ): Promise<StoredCredentials> {
    return updateStateFile(this.fileOf(server), (text) => {
      const next = edit(text === undefined ? undefined : parseCredentials(text));
      return { text: `${JSON.stringify(next, null, 2)}\n`, result: next };
    });
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

/** A damaged file is no sign-in; the next sign-in replaces it. */
function parseCredentials(text: string): StoredCredentials | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    const serverUrl = (value as { serverUrl?: unknown } | null)?.serverUrl;
    return typeof serverUrl === "string" ? (value as StoredCredentials) : undefined;
  } catch {
    return undefined;
  }
}
