/**
 * Delivery order for what a stdio server writes. The SDK's `Protocol` runs a
 * notification's handler a microtask after it receives it, but settles a
 * response at once and drops that request's progress handler with it. So a
 * progress report read in the same chunk as its request's result reached the
 * handler too late and was lost (typescript-sdk#2580): a server that reports
 * its last step just before returning lost most of its reports.
 *
 * Here a response that follows a notification in one synchronous burst is
 * held until that notification's handler has run. Whatever comes after a held
 * message waits behind it, so every message keeps its place in the stream.
 */
import type { JSONRPCMessage } from "@modelcontextprotocol/client";

/** A JSON-RPC response (result or error): the kind of message the SDK settles at once. */
function isResponse(message: JSONRPCMessage): boolean {
  return !("method" in message);
}

function isNotification(message: JSONRPCMessage): boolean {
  return "method" in message && !("id" in message);
}

export class InboundOrder {
  private held: JSONRPCMessage[] = [];
  /** Notifications delivered whose handler microtask may not have run yet. */
  private unsettledNotifications = 0;
  private flushScheduled = false;

  constructor(
    private readonly dispatch: (message: JSONRPCMessage) => void,
    private readonly onError: (error: Error) => void,
  ) {}

  push(message: JSONRPCMessage): void {
    if (this.held.length > 0 || (this.unsettledNotifications > 0 && isResponse(message))) {
      this.held.push(message);
      this.scheduleFlush();
      return;
    }
    this.deliver(message);
  }

  /** Drops what is still held (the connection is gone). */
  clear(): void {
    this.held = [];
  }

  private deliver(message: JSONRPCMessage): void {
    this.dispatch(message);
    if (!isNotification(message)) return;
    this.unsettledNotifications += 1;
    // Queued after the handler the SDK just queued, so it runs once that handler has.
    queueMicrotask(() => {
      this.unsettledNotifications -= 1;
    });
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    queueMicrotask(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.held.length > 0) {
      const next = this.held[0]!;
      if (this.unsettledNotifications > 0 && isResponse(next)) {
        this.scheduleFlush();
        return;
      }
      this.held.shift();
      try {
        this.deliver(next);
      } catch (error) {
        this.onError(error instanceof Error ? error : new Error(String(error)));
      }
    }
  }
}
