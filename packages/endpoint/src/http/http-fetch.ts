/**
 * The `fetch` the HTTP transports use. Node's built-in fetch (undici) cuts a
 * response whose body is idle for 300 s and gives up on headers after 300 s:
 * an idle standalone SSE stream, or a long tool call answered over SSE or with
 * late headers, would die for no reason. Our own deadlines govern instead, so
 * both undici timeouts are off (0) unless a caller sets one. Each endpoint owns
 * its dispatcher and destroys it on close, so no keep-alive socket outlives it.
 * A request that only reads is sent once more when its connection was reset
 * before an answer (see `repeat-on-reset.ts`). Response bodies are capped
 * (see `response-cap.ts`). undici itself loads on
 * the first request: a run with only stdio servers never pays for it (a large
 * module, 40-90 ms of startup here).
 */
import type * as Undici from "undici";
import type { FetchLike } from "@modelcontextprotocol/client";
import { capResponse, type ResponseTooLargeError } from "./response-cap";
import { repeatableAfter } from "./repeat-on-reset";

export interface HttpFetch {
  readonly fetch: FetchLike;
  close(): Promise<void>;
}

export interface HttpFetchOptions {
  /** Idle limit on bodies and headers; 0 means none. */
  readonly bodyTimeoutMs: number;
  /** Largest response body (or single SSE event) accepted. */
  readonly maxResponseBytes: number;
  /** Told whenever a response trips the cap. */
  readonly onTooLarge: (error: ResponseTooLargeError) => void;
}

let undici: Promise<typeof Undici> | undefined;
/**
 * A bundle that inlines undici's CommonJS build (indusr's) hands its exports
 * over as `default` only; Node's own ESM loader names them.
 */
const loadUndici = () =>
  (undici ??= import("undici").then((loaded) =>
    typeof loaded.Agent === "function" ? loaded : (loaded as unknown as { default: typeof Undici }).default,
  ));

/**
 * How long before a server's announced keep-alive timeout (`Keep-Alive:
 * timeout=N`) an idle connection is given up rather than reused. A connection
 * the server closes for idleness just as the client reuses it fails the
 * request with a reset, and a tool call is never sent again (see
 * `repeat-on-reset.ts`); the client's idle timer runs on this process's event
 * loop, which a loaded machine stalls for seconds. undici's 2 s margin lost
 * 37 gateway calls to server-everything (Node, 5 s) at load ~20; 4 s keeps a
 * connection to such a server for 1 s of idleness, and one announcing 4 s or
 * less is never reused.
 */
const KEEP_ALIVE_MARGIN_MS = 4_000;

export function createHttpFetch(options: HttpFetchOptions): HttpFetch {
  let dispatcher: Undici.Agent | undefined;
  let closed = false;
  const fetch: FetchLike = async (url, init) => {
    const { Agent, fetch: undiciFetch } = await loadUndici();
    if (closed) throw new Error("HTTP client closed");
    const agent = (dispatcher ??= new Agent({
      bodyTimeout: options.bodyTimeoutMs,
      headersTimeout: options.bodyTimeoutMs,
      keepAliveTimeoutThreshold: KEEP_ALIVE_MARGIN_MS,
    }));
    // undici's own fetch, so the dispatcher and the fetch are one version.
    const send = () => undiciFetch(url, { ...(init as object), dispatcher: agent });
    const response = await send().catch((error: unknown) => {
      if (closed || !repeatableAfter(error, init)) throw error;
      return send();
    });
    return capResponse(response, options.maxResponseBytes, options.onTooLarge);
  };
  return {
    fetch,
    async close() {
      closed = true;
      try {
        await dispatcher?.destroy();
      } catch {
        // Already destroyed.
      }
    },
  };
}
