/**
 * When a request may be sent again after its connection was reset. A
 * keep-alive connection that the server closes for idleness just as the
 * client reuses it fails the request with a reset before the server read a
 * byte of it: a race every HTTP client meets, more often on a busy machine.
 * A request that only reads (a listing, `ping`, `server/discover`, a read of
 * a resource or prompt, a completion) or ends a session is safe to send once
 * more on a fresh connection; anything that may act (`tools/call`,
 * `initialize`, a notification) is never sent twice.
 */
import { networkCause } from "../faults/network-cause";

const READ_METHODS: ReadonlySet<string> = new Set([
  "ping",
  "server/discover",
  "tools/list",
  "prompts/list",
  "prompts/get",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "completion/complete",
]);

interface RequestShape {
  readonly method?: string;
  readonly body?: unknown;
  readonly signal?: AbortSignal | null;
}

/** Whether `init`, which failed with `error`, may go out once more. */
export function repeatableAfter(error: unknown, init: RequestShape | undefined): boolean {
  if (networkCause(error)?.kind !== "reset" || init?.signal?.aborted === true) return false;
  const verb = (init?.method ?? "GET").toUpperCase();
  if (verb === "DELETE") return true;
  return verb === "POST" && READ_METHODS.has(rpcMethodOf(init?.body) ?? "");
}

/** The JSON-RPC method of a single request's body (never of a notification or a batch). */
function rpcMethodOf(body: unknown): string | undefined {
  if (typeof body !== "string") return undefined;
  try {
    const message = JSON.parse(body) as { method?: unknown; id?: unknown };
    return typeof message.method === "string" && message.id !== undefined ? message.method : undefined;
  } catch {
    return undefined;
  }
}
