/**
 * The JSON-RPC error a server answered with, as fault fields: its code and
 * `data`, so a gateway can hand the same error on instead of a generic one.
 * Only the SDK's `ProtocolError` counts: it is what a JSON-RPC error response
 * becomes; the SDK's own local failures are `SdkError`s with string codes.
 */
import type { FaultDetails, JsonValue } from "@indus/contract";
import { ProtocolError } from "@modelcontextprotocol/client";

export function serverErrorDetails(error: unknown): Pick<FaultDetails, "rpcCode" | "data"> {
  if (!(error instanceof ProtocolError)) return {};
  const data = error.data as JsonValue | undefined;
  return { rpcCode: error.code, ...(data === undefined ? {} : { data }) };
}
