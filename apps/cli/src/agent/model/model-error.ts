/**
 * One readable sentence for a failed model request. The AI SDK reports HTTP
 * failures as `APICallError` (status, URL, the provider's own message) and
 * wraps exhausted retries in `RetryError`; both are recognised by their
 * markers, not by message text.
 */
import { APICallError, RetryError } from "ai";

function describeOne(error: unknown): string {
  if (APICallError.isInstance(error)) {
    const status = error.statusCode !== undefined ? `${error.statusCode} ` : "";
    const hint =
      error.statusCode === 401 || error.statusCode === 403
        ? " (check the API key)"
        : error.statusCode === 404
          ? " (check --model and --base-url)"
          : error.statusCode === 429
            ? " (rate limited)"
            : "";
    return `${status}${error.message}${hint}`.trim();
  }
  if (error instanceof Error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return cause?.code ? `${error.message} (${cause.code})` : error.message;
  }
  return String(error);
}

export function describeModelError(error: unknown): string {
  if (RetryError.isInstance(error)) {
    const attempts = error.errors.length;
    return `${describeOne(error.lastError)}; gave up after ${attempts} attempt${attempts === 1 ? "" : "s"}`;
  }
  return describeOne(error);
}
