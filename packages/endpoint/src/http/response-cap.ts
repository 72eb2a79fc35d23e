/**
 * A size cap on HTTP responses, like the stdio line cap: without one, a
 * server answering a call with 100 MB costs several times that in memory.
 * A JSON body is capped as a whole; an SSE stream (which may stay open for
 * hours) per event, counting the bytes since the last blank line.
 */

export class ResponseTooLargeError extends Error {
  override readonly name = "ResponseTooLargeError";
  constructor(
    readonly limit: number,
    /** True when the cap tripped inside an SSE stream (one event too large). */
    readonly inStream: boolean,
  ) {
    super(
      `server sent ${inStream ? "an SSE event" : "a response"} over ${limit} bytes (the endpoint's maxMessageBytes)`,
    );
  }
}

export function isResponseTooLarge(error: unknown): error is ResponseTooLargeError {
  return error instanceof ResponseTooLargeError;
}

const LF = 10;
const CR = 13;

/** Counts bytes since the last SSE event boundary (an empty line, `\n` or `\r\n`). */
class EventBoundaryCounter {
  private sinceBoundary = 0;
  /** Bytes of the current, unfinished line, carried over from earlier chunks. */
  private lineBytes = 0;
  private endsWithCr = false;

  /** Bytes of the event still open at the end of `chunk`. */
  push(chunk: Uint8Array): number {
    let lineStart = 0;
    let boundaryEnd = -1;
    for (let at = chunk.indexOf(LF); at !== -1; at = chunk.indexOf(LF, at + 1)) {
      const carried = lineStart === 0 ? this.lineBytes : 0;
      const crBefore = at > 0 ? chunk[at - 1] === CR : this.endsWithCr;
      if (carried + at - lineStart - (crBefore ? 1 : 0) === 0) boundaryEnd = at;
      lineStart = at + 1;
    }
    this.lineBytes = (lineStart === 0 ? this.lineBytes : 0) + chunk.length - lineStart;
    if (chunk.length > 0) this.endsWithCr = chunk[chunk.length - 1] === CR;
    this.sinceBoundary = boundaryEnd === -1 ? this.sinceBoundary + chunk.length : chunk.length - boundaryEnd - 1;
    return this.sinceBoundary;
  }
}

function capStream(
  limit: number,
  inStream: boolean,
  onTooLarge: (error: ResponseTooLargeError) => void,
): TransformStream<Uint8Array, Uint8Array> {
  const events = new EventBoundaryCounter();
  let total = 0;
  return new TransformStream({
    transform(chunk, controller) {
      total += chunk.length;
      const size = inStream ? events.push(chunk) : total;
      if (size <= limit) {
        controller.enqueue(chunk);
        return;
      }
      const error = new ResponseTooLargeError(limit, inStream);
      controller.error(error);
      onTooLarge(error);
    },
  });
}

/**
 * `response` with its body capped at `limit` bytes (per event for SSE). A
 * declared `content-length` over the limit fails at once, before any byte is read.
 * `onTooLarge` hears of every trip: the SDK reports a broken SSE stream only
 * as text, so this is how the endpoint learns why the stream ended.
 */
export function capResponse(
  response: Response,
  limit: number,
  onTooLarge: (error: ResponseTooLargeError) => void,
): Response {
  if (!response.body || !Number.isFinite(limit)) return response;
  const inStream = (response.headers.get("content-type") ?? "").includes("text/event-stream");
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (!inStream && declared > limit) {
    void response.body.cancel().catch(() => undefined);
    const error = new ResponseTooLargeError(limit, false);
    onTooLarge(error);
    throw error;
  }
  return new Response(response.body.pipeThrough(capStream(limit, inStream, onTooLarge)), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
