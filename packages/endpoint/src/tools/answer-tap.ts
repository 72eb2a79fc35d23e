/**
 * A transport seen through a tap on the answers to one method: the ids of
 * outgoing requests of `method` are noted while `active()`, and the answer
 * to each noted request passes through `rewrite` before the SDK client reads
 * The SDK's 2026-era codec checks answers before any caller hook runs, so
 * what it must not see is changed here (see `task-results.ts`).
 */
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import { tapTransport } from "../transport-tap";

/** The fields read here, on any JSON-RPC message. */
export interface TappedMessage {
  readonly jsonrpc?: string;
  readonly id?: string | number | undefined;
  readonly method?: string | undefined;
  readonly result?: unknown;
}

export function tapAnswers(
  transport: Transport,
  method: string,
  active: () => boolean,
  rewrite: (answer: TappedMessage) => TappedMessage,
): Transport {
  const pending = new Set<string | number>();
  const answerOf = (message: TappedMessage): TappedMessage =>
    message.id === undefined || message.method !== undefined || !pending.delete(message.id)
      ? message
      : rewrite(message);
  return tapTransport(transport, {
    sending: (message) => {
      const sent = message as TappedMessage;
      if (sent.method === method && sent.id !== undefined && active()) pending.add(sent.id);
    },
    inbound: (deliver) => (message, extra) =>
      deliver(pending.size > 0 ? (answerOf(message) as JSONRPCMessage) : message, extra),
  });
}
