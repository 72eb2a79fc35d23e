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
  // Made once per tap, not per property read: the SDK reads `send` for every
  // message it sends, through each stacked tap.
  const send = tap.sending && tappedSend(transport, tap.sending);
  const close = tap.closing && tappedClose(transport, tap.closing);
  const bound = new BoundMethods(transport);
  return new Proxy(transport, {
    get(target, key) {
      if (key === "send" && send !== undefined) return send;
      if (key === "close" && close !== undefined) return close;
      return bound.read(key);
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

function tappedSend(transport: Transport, sending: (message: JSONRPCMessage) => void): Transport["send"] {
  return (message, options) => {
    sending(message);
    return transport.send(message, options);
  };
}

function tappedClose(transport: Transport, closing: () => void): Transport["close"] {
  return () => {
    closing();
    return transport.close();
  };
}

type Method = (...args: unknown[]) => unknown;

/**
 * The transport's own properties, its methods bound to it; a method is bound
 * once and handed out again while the transport keeps the same function.
 */
class BoundMethods {
  private readonly methods = new Map<PropertyKey, { readonly own: Method; readonly bound: Method }>();

  constructor(private readonly target: Transport) {}

  read(key: PropertyKey): unknown {
    const value: unknown = Reflect.get(this.target, key, this.target);
    if (typeof value !== "function") return value;
    const known = this.methods.get(key);
    if (known?.own === value) return known.bound;
    const bound = (value as Method).bind(this.target);
    this.methods.set(key, { own: value as Method, bound });
    return bound;
  }
}
