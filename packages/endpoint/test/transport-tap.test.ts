/**
 * Stacked transport taps, as the endpoint stacks them under the SDK client:
 * each tap sees every outgoing message and wraps the inbound handler once,
 * the transport's own properties and methods read through (bound to it), and
 * a read of `send` (the SDK reads it for every message, through every tap)
 * hands out the same function each time instead of making one per read.
 */
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import { tapTransport } from "../src/transport-tap";

class RecordingTransport implements Transport {
  readonly sent: JSONRPCMessage[] = [];
  readonly pid = 4242;
  closed = 0;
  onmessage?: (message: JSONRPCMessage, extra?: unknown) => void;

  start(): Promise<void> {
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message);
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.closed += 1;
    return Promise.resolve();
  }

  /** A method that needs its `this`. */
  sentCount(): number {
    return this.sent.length;
  }
}

const ping = (id: number): JSONRPCMessage => ({ jsonrpc: "2.0", id, method: "ping" });

function stacked(transport: RecordingTransport, seen: string[]): Transport {
  const inner = tapTransport(transport, {
    sending: (message) => seen.push(`inner sent ${(message as { id: number }).id}`),
    inbound: (deliver) => (message, extra) => {
      seen.push("inner heard");
      deliver(message, extra);
    },
    closing: () => seen.push("inner closing"),
  });
  return tapTransport(inner, {
    sending: (message) => seen.push(`outer sent ${(message as { id: number }).id}`),
    inbound: (deliver) => (message, extra) => {
      seen.push("outer heard");
      deliver(message, extra);
    },
  });
}

describe("tapTransport", () => {
  it("shows each outgoing message to every tap, outermost first, then sends it once", async () => {
    const transport = new RecordingTransport();
    const seen: string[] = [];
    const tapped = stacked(transport, seen);
    await tapped.send(ping(1));
    await tapped.send(ping(2));
    expect(seen).toEqual(["outer sent 1", "inner sent 1", "outer sent 2", "inner sent 2"]);
    expect(transport.sent).toEqual([ping(1), ping(2)]);
  });

  it("hands out one send, one close and one bound method however often they are read", () => {
    const tapped = stacked(new RecordingTransport(), []);
    expect(tapped.send).toBe(tapped.send);
    expect(tapped.close).toBe(tapped.close);
    expect(tapped.start).toBe(tapped.start);
  });

  it("reads the transport's own properties and binds its methods to it", async () => {
    const transport = new RecordingTransport();
    const tapped = stacked(transport, []) as Transport & { pid: number; sentCount: () => number };
    expect(tapped.pid).toBe(4242);
    const { sentCount } = tapped;
    await tapped.send(ping(1));
    expect(sentCount()).toBe(1);
  });

  it("follows a method the transport replaces", () => {
    const transport = new RecordingTransport();
    const tapped = stacked(transport, []) as Transport & { sentCount: () => number };
    expect(tapped.sentCount()).toBe(0);
    transport.sentCount = () => 99;
    expect(tapped.sentCount()).toBe(99);
  });

  it("wraps the inbound handler through every tap, and tells the taps of close", async () => {
    const transport = new RecordingTransport();
    const seen: string[] = [];
    const tapped = stacked(transport, seen);
    const delivered: JSONRPCMessage[] = [];
    tapped.onmessage = (message) => delivered.push(message);
    transport.onmessage?.(ping(7));
    expect(delivered).toEqual([ping(7)]);
    await tapped.close();
    expect(seen).toEqual(["inner heard", "outer heard", "inner closing"]);
    expect(transport.closed).toBe(1);
  });
});
