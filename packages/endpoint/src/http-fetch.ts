/**
 * The `fetch` the HTTP transports use. Node's built-in fetch (undici) cuts a
 * response whose body is idle for 300 s and gives up on headers after 300 s:
 * an idle standalone SSE stream, or a long tool call answered over SSE or with
 * late headers, would die for no reason. Our own deadlines govern instead, so
 * both undici timeouts are off (0) unless a caller sets one. Each endpoint owns
 * its dispatcher and destroys it on close, so no keep-alive socket outlives it.
 */
import { Agent, fetch as undiciFetch } from "undici";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";

export interface HttpFetch {
  readonly fetch: FetchLike;
  close(): Promise<void>;
}

export function createHttpFetch(bodyTimeoutMs = 0): HttpFetch {
  const dispatcher = new Agent({ bodyTimeout: bodyTimeoutMs, headersTimeout: bodyTimeoutMs });
  const fetch: FetchLike = (url, init) =>
    // undici's own fetch, so the dispatcher and the fetch are one version.
    undiciFetch(url, { ...(init as object), dispatcher });
  return {
    fetch,
    async close() {
      try {
        await dispatcher.destroy();
      } catch {
        // Already destroyed.
      }
    },
  };
}
