/**
 * Lenient readers for what servers send back. The SDK's result schemas reject
 * a whole `tools/list` page when one tool is malformed, and its `callTool`
 * rejects a result whose `structuredContent` does not match the tool's
 * `outputSchema`. A bridge must instead keep every good tool and pass results
 * through as sent, so pages are read as arrays of unknowns and each item is
 * checked on its own.
 */
import { z } from "zod";
import { isRecord, type JsonObject, type JsonValue, type RemoteCallResult } from "@indus/contract";
import { SERVER_INFO_META_KEY } from "@modelcontextprotocol/client";

/**
 * Results are taken as they come (`z.any()` does not copy them) and checked
 * by the readers below: a strict schema would reject a whole page for one bad
 * item, and even a loose one copies every result, which shows in throughput.
 */
export const AnyResultSchema = z.any();

/** A tool as this bridge needs it; everything else about it is optional. */
export interface WireTool {
  readonly name: string;
  readonly title?: string | undefined;
  readonly description?: string | undefined;
  readonly inputSchema: unknown;
  readonly annotations?: Record<string, unknown> | undefined;
  /** The whole entry as the server sent it, for gateways to republish unchanged. */
  readonly raw: JsonObject;
}

/** One tool of a page, or why it was skipped. */
export function readTool(raw: unknown): { ok: true; tool: WireTool } | { ok: false; issue: string } {
  if (!isRecord(raw)) return { ok: false, issue: "a tools/list entry is not an object" };
  const name = raw["name"];
  if (typeof name !== "string" || name.length === 0) return { ok: false, issue: "a tool has no name" };
  return {
    ok: true,
    tool: {
      name,
      title: typeof raw["title"] === "string" ? raw["title"] : undefined,
      description: typeof raw["description"] === "string" ? raw["description"] : undefined,
      inputSchema: raw["inputSchema"],
      annotations: isRecord(raw["annotations"]) ? raw["annotations"] : undefined,
      raw: raw as JsonObject,
    },
  };
}

/** The items under `key` of one page of a listing, and the next cursor if any. */
export function readPage(result: unknown, method: string, key: string): { items: unknown[]; nextCursor?: string } {
  if (!isRecord(result)) throw new Error(`the ${method} result is not an object`);
  const items = result[key];
  if (!Array.isArray(items)) throw new Error(`the ${method} result has no ${key} array`);
  const next = result["nextCursor"];
  return typeof next === "string" && next.length > 0 ? { items, nextCursor: next } : { items };
}

/** Items of a listing that carry the one string field they are keyed by. */
export function keepWithString(items: readonly unknown[], key: string): JsonObject[] {
  return items.filter((item): item is JsonObject => isRecord(item) && typeof item[key] === "string");
}

/**
 * A `tools/call` result as the server sent it: content blocks untouched (a
 * non-array `content` becomes `[]`; a legacy `toolResult` rides as one block),
 * `structuredContent` when it is an object, `isError` only when `true`, and
 * the whole result as `wire` (not copied: the SDK hands results over as
 * parsed, less the 2026 era's `resultType`; see `withoutEnvelope`).
 */
export function readCallResult(result: unknown): RemoteCallResult {
  if (!isRecord(result)) throw new Error("the tools/call result is not an object");
  let content: JsonValue[];
  if (Array.isArray(result["content"])) content = result["content"] as JsonValue[];
  else if ("toolResult" in result && result["content"] === undefined) content = [result["toolResult"] as JsonValue];
  else content = [];
  const structured = result["structuredContent"];
  const isError = result["isError"] === true;
  const wire = withoutEnvelope(result) as JsonObject;
  return isRecord(structured)
    ? { content, structuredContent: structured as { [key: string]: JsonValue }, isError, wire }
    : { content, isError, wire };
}

/**
 * A 2026-era result less its per-hop envelope: `_meta`'s reserved
 * `serverInfo` key names the server that answered this hop. A gateway that
 * passed it on would present the mounted server's identity as its own (the
 * SDK lets a handler's `_meta` win over the envelope it adds), so it is not
 * part of what the server said. Copied only when the key is there.
 */
export function withoutEnvelope(result: Record<string, unknown>): Record<string, unknown> {
  const meta = result["_meta"];
  if (!isRecord(meta) || !(SERVER_INFO_META_KEY in meta)) return result;
  const { [SERVER_INFO_META_KEY]: _hop, ...rest } = meta;
  const { _meta: _dropped, ...body } = result;
  return Object.keys(rest).length > 0 ? { ...body, _meta: rest } : body;
}
