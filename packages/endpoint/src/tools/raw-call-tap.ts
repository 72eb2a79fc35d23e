/**
 * Where a raw call (see `ForwardRaw` in `@indus/contract`) meets the
 * connection: its request goes out through the inbound guard (so its answer
 * is bounded like any other), under an id of its own that no SDK client
 * uses (the client numbers its requests; the era probe's string id is the
 * SDK's), and its answer is caught here, after the guard and before the SDK
 * client, which never sees it. An answer to a call given up on is dropped.
 *
 * Deadlines share one timer per connection, not one per call: a call
 * answered in a fraction of a millisecond arms and disarms nothing, where a
 * timer of its own cost a timer list made and dropped on every call.
 */
import { randomBytes } from "node:crypto";
import { LOG_LEVEL_META_KEY, type JSONRPCMessage, type Transport } from "@modelcontextprotocol/client";
import { isRecord, ownKeyCount, type LogLevel } from "@indus/contract";
import { tapTransport } from "../transport-tap";
import { QUEUED } from "../stdio/queued";

/** A server's answer to a raw call, as the guard passed it. */
export interface RawReply {
  readonly result?: unknown;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
  /** The request could not be sent, or the connection ended before the answer. */
  readonly lost?: unknown;
}

/** How long a raw call may wait for its answer, the error it gives up with, and on a 2026-07-28 session its log level. */
export interface RawCallTerms {
  readonly timeoutMs: number;
  readonly expire: () => unknown;
  readonly level?: LogLevel | undefined;
}

/** The envelope with the log level the normal path would ask for (2026-07-28: it travels per request). */
function withLevel(envelope: Readonly<Record<string, unknown>>, level: LogLevel | undefined): Record<string, unknown> {
  return level === undefined ? envelope : Object.assign({}, envelope, { [LOG_LEVEL_META_KEY]: level });
}

/**
 * Ids of raw calls: never a number, and not an id the SDK client makes. Short
 * on purpose: both sides parse and write it on every call, and `JSON.parse`
 * of an answer with a 50-character id takes twice as long as with a 20-character one.
 */
const RAW_ID_PREFIX = `indus-raw-${randomBytes(4).toString("hex")}-`;

/**
 * True for a raw call's answer of the plainest form (a result whose `_meta`,
 * if any, is an object, or an error of integer code and string message):
 * what the SDK's `JSONRPCMessageSchema` accepts and gives back unchanged but
 * for a copy (and a malformed `serverInfo`, which the reader drops itself),
 * so the line reader may pass it on without that parse. Anything else,
 * including every other message, goes through the schema.
 */
export function isPlainRawAnswer(value: unknown): value is JSONRPCMessage {
  if (!isRecord(value) || value["jsonrpc"] !== "2.0") return false;
  const id = value["id"];
  if (typeof id !== "string" || !id.startsWith(RAW_ID_PREFIX)) return false;
  if (ownKeyCount(value) !== 3) return false;
  const { result, error } = value;
  // A `_meta` object passes the schema as it is, but for a malformed `serverInfo`, which `withoutEnvelope` drops anyway.
  if (result !== undefined) return isRecord(result) && (!Object.hasOwn(result, "_meta") || isRecord(result["_meta"]));
  return isRecord(error) && plainError(error);
}

function plainError(error: Record<string, unknown>): boolean {
  if (!Number.isInteger(error["code"]) || typeof error["message"] !== "string") return false;
  for (const key of Object.keys(error)) if (key !== "code" && key !== "message" && key !== "data") return false;
  return true;
}

/** A call waiting for its answer: whom to tell, and when it gives up. */
interface Waiting {
  readonly onReply: (reply: RawReply) => void;
  readonly deadline: number;
  readonly expire: () => unknown;
}

export class RawCallTap {
  private readonly waiting = new Map<string, Waiting>();
  private sent = 0;
  private sweep: NodeJS.Timeout | undefined;
  private sweepDue = 0;
  /**
   * On a 2026-07-28 session, what each message to the server carries in
   * `_meta` (the revision, who asks, and no capabilities: a raw call can
   * answer no question); undefined on a 2025-era one.
   */
  envelope: Readonly<Record<string, unknown>> | undefined;
  /** The connection with raw calls' answers taken out, for the SDK client. */
  readonly transport: Transport;

  /**
   * @param readResult reads an answer's result as the SDK client's request
   * path would (see `SessionClient.readCallResult`): the answer skips that path.
   */
  constructor(
    private readonly below: Transport,
    readonly readResult: (result: unknown) => Record<string, unknown> | Error,
  ) {
    this.transport = tapTransport(below, {
      inbound: (deliver) => (message, extra) => {
        if (!this.caught(message)) deliver(message, extra);
      },
    });
  }

  /**
   * Sends `tools/call` for `name`; returns its id (to cancel it). `onReply` is
   * called once, unless cancelled. Past `timeoutMs` the server is told the call
   * is cancelled and `onReply` gets what `expire` gives as `lost`.
   */
  call(name: string, args: unknown, onReply: (reply: RawReply) => void, terms: RawCallTerms): string {
    const id = `${RAW_ID_PREFIX}${++this.sent}`;
    const due = performance.now() + terms.timeoutMs;
    this.waiting.set(id, { onReply, deadline: due, expire: terms.expire });
    if (this.sweep === undefined || due < this.sweepDue) this.arm(due, terms.timeoutMs);
    const params = { name, arguments: args, ...(this.envelope && { _meta: withLevel(this.envelope, terms.level) }) };
    const request = { jsonrpc: "2.0", id, method: "tools/call", params };
    const sent = this.below.send(request as JSONRPCMessage);
    if (sent !== QUEUED)
      sent.catch((error: unknown) => {
        if (this.waiting.delete(id)) onReply({ lost: error });
      });
    return id;
  }

  /** Gives a call up: the server is told, and its answer, if one comes, is dropped. */
  cancel(id: string, reason: string): void {
    if (!this.waiting.delete(id)) return;
    const params = { requestId: id, reason, ...(this.envelope && { _meta: this.envelope }) };
    const cancelled = { jsonrpc: "2.0", method: "notifications/cancelled", params };
    void this.below.send(cancelled as JSONRPCMessage).catch(() => undefined);
  }

  /** The connection ended: calls still waiting for their answer get `lost`. */
  lostAll(error: unknown): void {
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    this.disarm();
    for (const { onReply } of waiting) onReply({ lost: error });
  }

  /** The shared timer fired: calls past their deadline give up; it is armed again for the next one due. */
  private readonly expireDue = (): void => {
    this.sweep = undefined;
    const now = performance.now();
    let next = Number.POSITIVE_INFINITY;
    for (const [id, { onReply, deadline, expire }] of this.waiting) {
      if (deadline > now) {
        next = Math.min(next, deadline);
        continue;
      }
      const error = expire();
      this.cancel(id, String(error));
      onReply({ lost: error });
    }
    if (next !== Number.POSITIVE_INFINITY) this.arm(next, next - now);
  };

  /**
   * Not holding the process open: a waiting call's connection does. It stays
   * armed past the last answer, so a steady stream of calls arms it once a deadline.
   */
  private arm(due: number, inMs: number): void {
    this.disarm();
    this.sweepDue = due;
    this.sweep = setTimeout(this.expireDue, Math.ceil(inMs)).unref();
  }

  private disarm(): void {
    if (this.sweep !== undefined) clearTimeout(this.sweep);
    this.sweep = undefined;
  }

  /** True when `message` answers a raw call (then it is handled here, or dropped). */
  private caught(message: JSONRPCMessage): boolean {
    const id = (message as { id?: unknown }).id;
    if (typeof id !== "string" || "method" in message || !id.startsWith(RAW_ID_PREFIX)) return false;
    const waiting = this.waiting.get(id);
    if (waiting !== undefined) {
      this.waiting.delete(id);
      waiting.onReply(message);
    }
    return true;
  }
}
