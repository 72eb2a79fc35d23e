/**
 * What the messages of a session's POST body are, by the SDK's own schema and
 * guards (`session-transport.ts` routes them).
 */
import { isInitializeRequest, parseJSONRPCMessage } from "@modelcontextprotocol/server";
import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/server";

/** The body's messages, validated by the SDK's schema, or undefined when one is not JSON-RPC. */
export function parsedMessages(body: unknown): JSONRPCMessage[] | undefined {
  try {
    return Array.isArray(body) ? body.map((message) => parseJSONRPCMessage(message)) : [parseJSONRPCMessage(body)];
  } catch {
    return undefined;
  }
}

/** On a validated message: a request has a method and an id, a response an id and no method. */
export function isRequest(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId; method: string } {
  return "method" in message && "id" in message;
}

/** A `notifications/cancelled` (from the server: it withdraws a request it sent the client). */
export function isWithdrawal(message: JSONRPCMessage): boolean {
  return "method" in message && message.method === "notifications/cancelled" && !("id" in message);
}

export function isResponse(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } {
  return !("method" in message) && "id" in message && message.id !== undefined;
}

/** The SDK's check, run only on messages named `initialize` (it costs a failed parse on every other one). */
export function isInitialize(message: JSONRPCMessage): boolean {
  return isRequest(message) && message.method === "initialize" && isInitializeRequest(message);
}
