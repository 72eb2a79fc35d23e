/**
 * A server that speaks only the 2026-07-28 era, met by a client pinned to
 * the 2025 era, answers `initialize` with JSON-RPC `-32022` (unsupported
 * protocol version) listing what it supports: over stdio as a protocol
 * error, over HTTP as a 4xx whose body is that JSON-RPC error. Recognised
 * from those structured fields, so the fault names the era mismatch instead
 * of retrying the server as legacy SSE (it is not an SSE server).
 */
import { ProtocolError, SdkHttpError } from "@modelcontextprotocol/client";

const UNSUPPORTED_PROTOCOL_VERSION = -32022;

function supportedOf(data: unknown): string[] | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const supported = (data as Record<string, unknown>)["supported"];
  return Array.isArray(supported) && supported.every((v) => typeof v === "string") ? supported : undefined;
}

function fromHttpBody(text: unknown): string[] | undefined {
  if (typeof text !== "string") return undefined;
  try {
    const parsed = JSON.parse(text) as { error?: { code?: unknown; data?: unknown } };
    return parsed.error?.code === UNSUPPORTED_PROTOCOL_VERSION ? supportedOf(parsed.error.data) : undefined;
  } catch {
    return undefined;
  }
}

/** The revisions a server said it supports when it refused ours with `-32022`. */
export function refusedRevisions(error: unknown): string[] | undefined {
  if (error instanceof ProtocolError && error.code === UNSUPPORTED_PROTOCOL_VERSION) return supportedOf(error.data);
  if (error instanceof SdkHttpError) return fromHttpBody(error.data["text"]);
  return undefined;
}

/** True when the server refused a 2025-era request and supports only 2026-era revisions. */
export function isModernOnlyRefusal(error: unknown): boolean {
  const supported = refusedRevisions(error);
  return supported !== undefined && supported.length > 0 && supported.every((revision) => revision >= "2026");
}
