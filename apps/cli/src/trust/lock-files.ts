/**
 * Pins on disk: one lock file beside each config file, holding the pins of
 * the servers that file defines (`mcp.json` → `mcp.lock.json`, `.mcp.json` →
 * `.mcp.lock.json`, `gateway.json` → `gateway.lock.json`). It is readable and
 * diffable, so it can be reviewed and committed with the config, and a
 * stateless replica ships it. Every write runs under the config file's own
 * lock (the one `mcp add` takes), reading the file afresh inside it, so two
 * processes pinning at once keep each other's pins.
 */
import fs from "node:fs";
import path from "node:path";
import type { DefinitionKind } from "@indus/contract";
import {
  EMPTY_PIN_BOOK,
  parsePinBook,
  serializePinBook,
  withMissingPins,
  type KindPins,
  type PinBook,
  type PinStore,
  type ServerPins,
} from "@indus/deck/trust";
import { withFileLockSync, writeFileAtomicSync, writeTarget } from "@indus/state-file";

/** The lock file that belongs to `configFile`. */
export function lockFileOf(configFile: string): string {
  const base = path.basename(configFile).replace(/\.(jsonc?|toml)$/u, "");
  return path.join(path.dirname(configFile), `${base}.lock.json`);
}

export interface LockFilesOptions {
  /** Server id → the config file that defines it (servers without one are never pinned to a file). */
  readonly configOf: (server: string) => string | undefined;
  /** A stateless replica never writes pins: it runs what its shipped lock files pin. */
  readonly readOnly?: boolean;
}

/** What reading a lock file found wrong (a hand edit, broken JSON): the file and the reasons. */
export interface LockFileProblem {
  readonly file: string;
  readonly problems: readonly string[];
}

export class LockFiles implements PinStore {
  private readonly books = new Map<string, PinBook>();
  private readonly problemsOf = new Map<string, readonly string[]>();
  private session: PinBook = EMPTY_PIN_BOOK;

  constructor(private readonly options: LockFilesOptions) {}

  /** The lock file of `server`, when it has a config file. */
  fileOf(server: string): string | undefined {
    const config = this.options.configOf(server);
    return config === undefined ? undefined : lockFileOf(config);
  }

  read(server: string): ServerPins | undefined {
    const file = this.fileOf(server);
    return (file === undefined ? this.session : this.book(file)).servers[server];
  }

  pinMissing(
    server: string,
    kind: DefinitionKind,
    pins: KindPins,
    listedWith: readonly string[],
  ): KindPins | undefined {
    if (this.options.readOnly) return undefined;
    const add = (book: PinBook) => withMissingPins(book, { server, kind, pins, listedWith });
    const config = this.options.configOf(server);
    if (config === undefined) {
      // A server from no file (an embedder's config) is pinned for this process only.
      this.session = add(this.session);
      return this.session.servers[server]?.[kind];
    }
    const file = lockFileOf(config);
    try {
      return this.edit(config, (book) => {
        const next = add(book);
        return { book: next, result: next.servers[server]?.[kind] };
      });
    } catch (error) {
      // First use trusts what it sees either way: this session keeps the pins, and the failure is reported.
      this.problemsOf.set(file, [
        ...(this.problemsOf.get(file) ?? []),
        `cannot write pins: ${(error as Error).message}`,
      ]);
      const next = add(this.book(file));
      this.books.set(file, next);
      return next.servers[server]?.[kind];
    }
  }

  /** Replace every pin of `server` (an approval), under the config file's lock. */
  replace(server: string, pins: ServerPins): string {
    const config = this.options.configOf(server);
    if (config === undefined) throw new Error(`server "${server}" has no config file to keep its pins beside`);
    this.edit(config, (book) => ({ book: { servers: { ...book.servers, [server]: pins } }, result: undefined }));
    return lockFileOf(config);
  }

  /** Problems found in the lock files read so far. */
  problems(): LockFileProblem[] {
    return [...this.problemsOf].filter(([, p]) => p.length > 0).map(([file, problems]) => ({ file, problems }));
  }

  private book(file: string): PinBook {
    let book = this.books.get(file);
    if (book === undefined) {
      book = this.load(file);
      this.books.set(file, book);
    }
    return book;
  }

  private load(file: string): PinBook {
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      return EMPTY_PIN_BOOK;
    }
    const { book, problems } = parsePinBook(text);
    this.problemsOf.set(file, problems);
    return book;
  }

  /** A locked read-modify-write of the lock file of `config`; the cache follows what was written. */
  private edit<T>(config: string, change: (book: PinBook) => { book: PinBook; result: T }): T {
    const file = lockFileOf(config);
    return withFileLockSync(
      writeTarget(config),
      () => {
        const { book, result } = change(this.load(file));
        writeFileAtomicSync(file, serializePinBook(book), { dirMode: 0o777 });
        this.books.set(file, book);
        return result;
      },
      { dirMode: 0o777 },
    );
  }
}
