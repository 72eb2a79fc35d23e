/**
 * A `tools/call` taken raw on a stdio connection (see `@indus/contract`'s
 * `raw-call.ts`): sent as the client sent it but for the name, under the
 * call's deadline, and answered with the server's result as sent, or with
 * the fault the normal path would give (its JSON-RPC error, the deadline, a
 * lost connection), classified by the same `onSession`. Only a plain call of
 * a listed tool on a ready session is taken; anything else is left to
 * `ToolCalls`. On a 2026-07-28 session the call carries the session's
 * envelope and declares neither capabilities nor tasks. Whatever the era, a
 * result is read as the SDK client's own request would read it: by the
 * session's codec (see `readResult`).
 */
import {
  isPlainTextBlock,
  isRecord,
  type JsonObject,
  type ProtocolFault,
  type RawCall,
  type RawForward,
} from "@indus/contract";
import { ProtocolError } from "@modelcontextprotocol/client";
import { DeadlineExceeded } from "../deadline";
import type { Session } from "../session";
import type { SessionPort } from "../session-port";
import { withoutEnvelope } from "../wire";
import type { RawCallTap, RawReply } from "./raw-call-tap";
import type { ToolCatalog } from "./tool-catalog";
import { listsFirst } from "./tool-calls";

/** The session port, and how a request's error becomes its fault (as `onSession` makes it for a stdio call). */
export interface RawCallPort extends SessionPort {
  toFault(site: "call", error: unknown, session?: Session): ProtocolFault;
}

export function forwardRawCall(port: RawCallPort, tools: ToolCatalog, call: RawCall): RawForward | undefined {
  const session = port.current();
  const raw = session?.rawCalls;
  if (raw === undefined || session === undefined || session.retired || !isReady(port)) return undefined;
  const modern = session.era === "2026-07-28";
  if (modern && raw.envelope === undefined) return undefined;
  const traits = tools.callTraits(call.name);
  // A tool that must run as a task, or a call that would list the tools first, takes the normal path.
  const facts = {
    traits,
    listed: tools.cached !== undefined,
    listFailed: tools.listFault !== undefined,
    session,
    capabilities: port.capabilities(),
  };
  if (traits?.task === true || listsFirst(facts)) return undefined;
  const timeoutMs = port.timeouts.callMs;
  const fail = (error: unknown) => call.answer({ kind: "fault", error: port.toFault("call", error, session) });
  const expire = () => new DeadlineExceeded(timeoutMs, false);
  const terms = { timeoutMs, expire, ...(modern && { level: call.logLevel }) };
  const id = raw.call(
    call.name,
    call.arguments,
    (reply) => settle(reply, { tools, call, fail, tap: raw, modern }),
    terms,
  );
  return { cancel: (reason) => raw.cancel(id, reason) };
}

function isReady(port: SessionPort): boolean {
  try {
    port.readySession("call");
    return true;
  } catch {
    return false;
  }
}

/** What settling a reply needs. */
interface Settling {
  readonly tools: ToolCatalog;
  readonly call: RawCall;
  readonly fail: (error: unknown) => void;
  /** The connection the call went out on: it reads the result as the SDK client would. */
  readonly tap: RawCallTap;
  readonly modern: boolean;
}

/** The reply as the normal path reads it: a result object (less its hop envelope), or a fault. */
function settle(reply: RawReply, { tools, call, fail, tap, modern }: Settling): void {
  if (reply.lost !== undefined) return fail(reply.lost);
  if (reply.error !== undefined)
    return fail(ProtocolError.fromError(reply.error.code, reply.error.message, reply.error.data));
  if (!isRecord(reply.result)) return fail(new Error("the tools/call result is not an object"));
  const read = readResult(tap, modern, reply.result);
  if (read instanceof Error) return fail(read);
  const result = withoutEnvelope(read) as JsonObject;
  // A tools/list_changed the call caused is read before its result is handed on.
  if (!tools.busy) return call.answer({ kind: "result", result });
  void tools.idle().then(() => call.answer({ kind: "result", result }));
}

/**
 * The result as the session's SDK codec reads it (a 2025 one loses any
 * `resultType`; a 2026-07-28 one must be `complete` and pass that era's
 * schema), or the error the SDK's request would fail with. The two forms the
 * codec gives back at once are read here without it: a 2025 result with no
 * `resultType`, and a plain complete 2026-07-28 one, which no schema check
 * can fail (less its `resultType`).
 */
function readResult(
  tap: RawCallTap,
  modern: boolean,
  result: Record<string, unknown>,
): Record<string, unknown> | Error {
  if (!modern && !Object.hasOwn(result, "resultType")) return result;
  if (modern && result["resultType"] === "complete" && plainCallResult(result)) {
    const { resultType: _kind, ...rest } = result;
    return rest;
  }
  return tap.readResult(result);
}

/** Plain text blocks, an `isError` that is a boolean if any, a `_meta` that is an object if any. */
function plainCallResult(result: Record<string, unknown>): boolean {
  const { content, isError, _meta: meta } = result;
  if (!Array.isArray(content) || (isError !== undefined && typeof isError !== "boolean")) return false;
  if (meta !== undefined && !isRecord(meta)) return false;
  return (content as unknown[]).every(isPlainTextBlock);
}
