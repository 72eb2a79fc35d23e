/** Reading a paginated list (`tools/list`, `resources/list`, ...) to its end. */
import type { Client } from "@modelcontextprotocol/client";
import { requestWithDeadline } from "./deadline";
import { AnyResultSchema, readPage } from "./wire";

const MAX_PAGES = 1_000;

export interface PageOptions {
  /** Deadline of each page's request. */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
  /** Sees each page's whole result (e.g. for the first page's `ttlMs`). */
  readonly onPage?: ((result: unknown) => void) | undefined;
}

/** Every item of a paginated list; a repeated cursor ends it as a protocol error. */
export async function allPages(client: Client, method: string, key: string, options: PageOptions): Promise<unknown[]> {
  const items: unknown[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const result = await requestWithDeadline<unknown>(
      client,
      { method, ...(cursor === undefined ? {} : { params: { cursor } }) },
      AnyResultSchema,
      { timeoutMs: options.timeoutMs, signal: options.signal },
    );
    options.onPage?.(result);
    const { items: pageItems, nextCursor } = readPage(result, method, key);
    items.push(...pageItems);
    if (nextCursor === undefined) return items;
    if (seen.has(nextCursor)) throw new Error(`${method} returned cursor ${JSON.stringify(nextCursor)} twice`);
    seen.add(nextCursor);
    cursor = nextCursor;
  }
  throw new Error(`${method} did not end after ${MAX_PAGES} pages`);
}
