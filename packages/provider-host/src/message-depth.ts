/**
 * The depth bound on what a client sends, checked where a message is parsed
 * (stdio line, HTTP body) before the SDK or any handler reads it: a request
 * nested past `MAX_JSON_DEPTH` would overflow the stack of whatever walks it
 * next (argument validation, the upstream's `JSON.stringify`), so it is
 * answered with an error naming the path instead.
 */
import { MAX_JSON_DEPTH, formatJsonPath, isRecord, tooDeepAt } from "@indus/contract";

/** Why `message` (one JSON-RPC message) nests too deep, naming where; undefined when it does not. */
export function messageTooDeep(message: unknown, maxDepth = MAX_JSON_DEPTH): string | undefined {
  // Levels below the message's own members (`params`, `result`, ...), as the endpoint counts them.
  const path = tooDeepAt(message, maxDepth + 1);
  if (path === undefined) return undefined;
  return `${String(path[0])} nests deeper than ${maxDepth} levels (at ${formatJsonPath(path, 5)})`;
}

/** Why a body (one message or a batch) nests too deep, and the id to answer; undefined when none does. */
export function bodyTooDeep(body: unknown, maxDepth = MAX_JSON_DEPTH): { reason: string; id: unknown } | undefined {
  for (const message of Array.isArray(body) ? (body as unknown[]) : [body]) {
    const reason = messageTooDeep(message, maxDepth);
    if (reason !== undefined) return { reason, id: isRecord(message) ? (message["id"] ?? null) : null };
  }
  return undefined;
}
