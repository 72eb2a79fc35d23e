import { hash } from "node:crypto";
import { monotonicFactory, type ULIDFactory } from "ulid";
import { canonicalJson } from "./canonical-json";
import { qualifyBridgeName, serverOfQualified, unqualifiedTool } from "./names";

declare const bridgeKeyBrand: unique symbol;

/**
 * The stable key of an enrolled capability. Branded so a raw tool name or
 * server id cannot be passed where a key is meant; mint one with
 * `bridgeContentKey`, `bridgeUlidKey` or (for keys read back from storage)
 * `asBridgeKey`.
 */
export type BridgeKey = string & { readonly [bridgeKeyBrand]: true };

/** The prefix every minted key carries. */
export const BRIDGE_KEY_PREFIX = "bk_";

/**
 * Adopts a string as a key without checking it: for keys that come back from
 * your own storage. The ledger never interprets a key beyond equality.
 */
export function asBridgeKey(raw: string): BridgeKey {
  return raw as BridgeKey;
}

/**
 * The default key: a pure function of what the tool is. `bk_` + the first 32
 * hex digits of sha256 over the canonical JSON of
 * `{ name: "<server>__<tool>", schema }` (keys sorted at every level, arrays
 * in order, a missing schema is `null`). Re-enrolling the same tool is then an
 * idempotent upsert, across sessions too; a changed schema is a new key.
 */
export function bridgeContentKey(server: string, tool: string, parameters?: unknown): BridgeKey {
  return contentKeyOf(qualifyBridgeName(server, tool), parameters);
}

/**
 * The key `enroll` mints when the request names none: the content key of the
 * capability under the enrolling server. A name already qualified with that
 * server (`"<server>__<tool>"`) is not qualified twice, so the bare and the
 * qualified spelling of one tool share a key.
 */
export function enrollmentKey(
  server: string,
  capability: { readonly name: string; readonly parameters?: unknown },
): BridgeKey {
  const tool = serverOfQualified(capability.name) === server ? unqualifiedTool(capability.name) : capability.name;
  return bridgeContentKey(server, tool, capability.parameters);
}

let nextUlid: ULIDFactory | undefined;

/**
 * An opt-in key for when each enrollment must be a distinct event rather than
 * a deduplicated identity: `bk_` + a ULID from one process-wide monotonic
 * generator, so keys minted in the same millisecond still sort in mint order.
 */
export function bridgeUlidKey(): BridgeKey {
  nextUlid ??= monotonicFactory();
  return `${BRIDGE_KEY_PREFIX}${nextUlid()}` as BridgeKey;
}

/**
 * The one content identity of indus: hex SHA-256 over the canonical JSON of
 * `value` (keys sorted at every level, depth unbounded without recursion).
 * Enrollment keys and trust pins are both cut from it, so a tool has one
 * identity whichever of them names it.
 */
export function contentDigest(value: unknown): string {
  // One-shot `crypto.hash` (Node >= 20.12): a fraction of createHash's cost for short inputs.
  return hash("sha256", canonicalJson(value), "hex");
}

function contentKeyOf(name: string, schema: unknown): BridgeKey {
  const digest = contentDigest({ name, schema: schema === undefined ? null : schema });
  return `${BRIDGE_KEY_PREFIX}${digest.slice(0, 32)}` as BridgeKey;
}
