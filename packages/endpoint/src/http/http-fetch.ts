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

export function createHttpFetch(options: HttpFetchOptions): HttpFetch {
  let dispatcher: Undici.Agent | undefined;
  let closed = false;
  const fetch: FetchLike = async (url, init) => {
    const { Agent, fetch: undiciFetch } = await loadUndici();
    if (closed) throw new Error("HTTP client closed");
    const agent = (dispatcher ??= new Agent({
      bodyTimeout: options.bodyTimeoutMs,
      headersTimeout: options.bodyTimeoutMs,
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
