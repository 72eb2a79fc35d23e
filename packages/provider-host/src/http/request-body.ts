/**
 * Reads a POST body under a byte bound before anything else happens. The host
 * parses bodies itself because it must route on them (a session-less POST is
 * only acceptable when it is an `initialize`); the parsed value is then handed
 * to the SDK transport as `parsedBody`, which therefore never reads the stream
 * and never applies its own limit.
 */
import type { IncomingMessage } from "node:http";

/** Default bound on a request body: well above what real clients send. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

export type BodyRead =
  | { readonly kind: "json"; readonly value: unknown }
  | { readonly kind: "too-large" }
  | { readonly kind: "malformed" }
  | { readonly kind: "aborted" };

/**
 * Reads and parses the body. Past the bound it stops buffering and reports
 * `too-large` at once, while the rest of the upload is discarded, so the
 * caller can still answer 413 on the same connection.
 */
export function readJsonBody(request: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  const declared = Number(request.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) {
    request.resume();
    return Promise.resolve({ kind: "too-large" });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const settle = (read: BodyRead) => {
      if (settled) return;
      settled = true;
      request.off("data", onData);
      request.off("end", onEnd);
      request.off("error", onFailure);
      request.off("aborted", onFailure);
      // Whatever is still arriving is drained and dropped.
      request.resume();
      resolve(read);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBytes) settle({ kind: "too-large" });
      else chunks.push(chunk);
    };
    const onEnd = () => {
      try {
        settle({ kind: "json", value: JSON.parse(Buffer.concat(chunks, received).toString("utf8")) });
      } catch {
        settle({ kind: "malformed" });
      }
    };
    const onFailure = () => settle({ kind: "aborted" });
    request.on("data", onData);
    request.on("end", onEnd);
    request.on("error", onFailure);
    request.on("aborted", onFailure);
  });
}
