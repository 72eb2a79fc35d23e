/**
 * A transport seen through a tap: the SDK client talks to it as to the
 * transport itself (pid, stderr, sessionId, start, ... are the transport's
 * own), while the tap sees each outgoing message before it is sent, wraps
 * the handler the client installs for inbound messages, and hears of close.
 * The endpoint stacks several (the inbound guard, call scopes, answer taps),
 * each one concern.
 */
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";

export type Deliver = (message: JSONRPCMessage, extra?: unknown) => void;

export interface TransportTap {
  /** Sees each outgoing message, just before the transport sends it. */
  readonly sending?: (message: JSONRPCMessage) => void;
  /** The handler to install in place of the client's `deliver`. */
  readonly inbound?: (deliver: Deliver) => Deliver;
  /** The client closes the transport. */
  readonly closing?: () => void;
}

export function tapTransport(transport: Transport, tap: TransportTap): Transport {
  return new Proxy(transport, {
    get(target, key) {
      if (key === "send" && tap.sending !== undefined) {
        return (message: JSONRPCMessage, options?: unknown) => {
          tap.sending!(message);
          return target.send(message, options as never);
        };
      }
      if (key === "close" && tap.closing !== undefined) {
        return () => {
          tap.closing!();
          return target.close();
        };
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    set(target, key, value: unknown) {
      if (key === "onmessage" && typeof value === "function" && tap.inbound !== undefined) {
        target.onmessage = tap.inbound(value as Deliver);
        return true;
      }
      return Reflect.set(target, key, value, target);
    },
  });
}
