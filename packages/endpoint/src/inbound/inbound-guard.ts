/**
 * The edge of the connection: every message the server sends passes here
 * before the SDK reads it. Results are bounded in depth (`inbound-depth.ts`)
 * in both eras; in the 2026 era they are also read liberally
 * (`modern-result-repair.ts`) and each listed tool is checked on its own
 * (`tool-list-sanitizer.ts`), because the SDK's 2026 codec would throw a
 * whole result away for one bad field. Prompts, resources and templates are
 * checked entry by entry in both eras (`catalog-list-sanitizer.ts`). A server request or notification
 * nested too deep is refused (a request gets an error back) and reported.
 * A handshake's `instructions` are capped in size (`handshake-caps.ts`).
 * Each drop or repair is reported with the method it came with.
 */
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import { isRecord } from "@indus/contract";
import { capInstructions } from "./handshake-caps";
import { boundResultDepth, paramsTooDeep } from "./inbound-depth";
import { repairModernResult } from "./modern-result-repair";
import { keepValidTools } from "../tools/tool-list-sanitizer";
import { keepValidCatalogEntries } from "./catalog-list-sanitizer";
import { tapTransport } from "../transport-tap";

export interface InboundGuardOptions {
  /** Deepest nesting accepted in a result or in params (levels below it). */
  readonly maxDepth: number;
  /** The 2026 era is live: its codec is strict, so results are repaired first. */
  readonly modern: () => boolean;
  /** What was dropped or repaired, by the method of the message it was in. */
  readonly onIssues: (method: string, issues: readonly string[]) => void;
}

/** The fields read here, on any JSON-RPC message. */
interface Message {
  readonly jsonrpc?: string;
  readonly id?: string | number | undefined;
  readonly method?: string | undefined;
  readonly params?: unknown;
  result?: unknown;
  error?: unknown;
}

/** The SDK's code for an internal error: what a refused result becomes. */
const INTERNAL_ERROR = -32603;
const INVALID_PARAMS = -32602;

function checkResult(method: string, message: Message, options: InboundGuardOptions): Message {
  if (!isRecord(message.result)) return message;
  const result = message.result;
  const bounded = boundResultDepth(method, result, options.maxDepth);
  if (bounded.kind === "refused") {
    options.onIssues(method, [`${bounded.reason} refused`]);
    return {
      jsonrpc: "2.0",
      id: message.id,
      error: { code: INTERNAL_ERROR, message: `server sent ${bounded.reason}; refused` },
    };
  }
  const issues = [...bounded.issues, ...capInstructions(method, result)];
  if (options.modern()) {
    issues.push(...repairModernResult(method, result));
    if (method === "tools/list") {
      const kept = keepValidTools(result);
      issues.push(...kept.issues);
      message.result = kept.result;
    }
  }
  // Both eras: what the gateway republishes of a prompt or resource list must pass a strict client.
  const entries = keepValidCatalogEntries(method, message.result as Record<string, unknown>);
  issues.push(...entries.issues);
  message.result = entries.result;
  if (issues.length > 0) options.onIssues(method, issues);
  return message;
}

/** An error whose `data` nests too deep keeps its code and message, without the data. */
function boundError(method: string, message: Message, options: InboundGuardOptions): Message {
  const error = message.error;
  if (!isRecord(error) || paramsTooDeep(error["data"], options.maxDepth) === undefined) return message;
  options.onIssues(method, [`the error's data dropped: it nests deeper than ${options.maxDepth} levels`]);
  const { data: _dropped, ...kept } = error;
  message.error = kept;
  return message;
}

/** Requests the server never answered are forgotten past this many (their ids would only pile up). */
const MAX_PENDING = 10_000;

/** `transport` with every inbound message checked as above. */
export function guardInbound(transport: Transport, options: InboundGuardOptions): Transport {
  const pending = new Map<string | number, string>();
  const remember = (id: string | number, method: string): void => {
    pending.set(id, method);
    if (pending.size > MAX_PENDING) pending.delete(pending.keys().next().value!);
  };
  const refuseRequest = (message: Message, why: string): void => {
    const answer = { jsonrpc: "2.0", id: message.id!, error: { code: INVALID_PARAMS, message: `refused: ${why}` } };
    void transport.send(answer as JSONRPCMessage).catch(() => undefined);
  };
  /** The message to deliver, or undefined to drop it. */
  const check = (message: Message): Message | undefined => {
    if (message.method === undefined) {
      const method = message.id === undefined ? undefined : pending.get(message.id);
      if (method === undefined) return message;
      pending.delete(message.id!);
      if (message.error !== undefined) return boundError(method, message, options);
      return checkResult(method, message, options);
    }
    const why = paramsTooDeep(message.params, options.maxDepth);
    if (why === undefined) return message;
    options.onIssues(message.method, [`${message.method} refused: ${why}`]);
    if (message.id !== undefined) refuseRequest(message, why);
    return undefined;
  };
  return tapTransport(transport, {
    sending: (message) => {
      const { method, id, params } = message as Message;
      if (method !== undefined && id !== undefined) remember(id, method);
      // A request the client gave up on gets no answer worth checking.
      if (method === "notifications/cancelled" && isRecord(params)) pending.delete(params["requestId"] as string);
    },
    inbound: (deliver) => (message, extra) => {
      const checked = check(message);
      if (checked !== undefined) deliver(checked as JSONRPCMessage, extra);
    },
  });
}
