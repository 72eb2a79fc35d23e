/**
 * How mounted items are named when published, and what happens when two
 * servers want the same name. `prefixed` (the default) can never clash: tools
 * and prompts go out as `<server>__<name>`, shared resource URIs as
 * `indus://<server>/<uri>`. `as-is` publishes everything under the server's
 * own names, which lets a gateway stand in for one server; then two servers
 * offering one name is a clash, reported as a `ProtocolFault` naming both.
 */
import { isProtocolFault, protocolFault, type ProtocolFault } from "@indus/contract";

export type NamingMode = "prefixed" | "as-is";

export const NAMING_MODES: readonly NamingMode[] = ["prefixed", "as-is"];

/** What two servers both offered. */
export type ClashKind = "tool" | "prompt" | "resource" | "resource-template" | "skill";

/** Two ready servers offering one name (as-is naming); the first, in config order, keeps it. */
export interface NameClash {
  readonly kind: ClashKind;
  /** The clashing tool or prompt name, resource URI or URI template. */
  readonly name: string;
  /** The server that keeps the name, then the one that lost it. */
  readonly servers: readonly [kept: string, dropped: string];
}

const WHAT: Record<ClashKind, string> = {
  tool: "tool",
  prompt: "prompt",
  resource: "resource URI",
  "resource-template": "resource template",
  skill: "skill",
};

/** A `protocol` fault for a clash: `server` is the server that lost the name, `data.nameClash` the clash. */
export function nameClashFault(clash: NameClash): ProtocolFault {
  const [kept, dropped] = clash.servers;
  return protocolFault(
    "protocol",
    `servers "${kept}" and "${dropped}" both offer ${WHAT[clash.kind]} "${clash.name}"`,
    undefined,
    { server: dropped, data: { nameClash: { kind: clash.kind, name: clash.name, servers: [kept, dropped] } } },
  );
}

/** The clash a fault from `nameClashFault` describes; undefined for any other value. */
export function nameClashOf(error: unknown): NameClash | undefined {
  if (!isProtocolFault(error)) return undefined;
  const data = error.data;
  if (typeof data !== "object" || data === null || Array.isArray(data)) return undefined;
  const clash = data["nameClash"];
  if (typeof clash !== "object" || clash === null || Array.isArray(clash)) return undefined;
  const { kind, name, servers } = clash;
  if (typeof kind !== "string" || !(kind in WHAT) || typeof name !== "string") return undefined;
  if (!Array.isArray(servers) || servers.length !== 2) return undefined;
  const [kept, dropped] = servers;
  if (typeof kept !== "string" || typeof dropped !== "string") return undefined;
  return { kind: kind as ClashKind, name, servers: [kept, dropped] };
}

/** Items with the server that offered each, in config order. */
export interface Offered<T> {
  readonly server: string;
  readonly item: T;
}

/**
 * Keep the first offer of each key and report every later offer of it by
 * another server as a clash (a server repeating its own key is not a clash).
 */
export function firstOfferWins<T>(
  offers: readonly Offered<T>[],
  key: (item: T) => string,
  kind: ClashKind,
): { kept: Offered<T>[]; clashes: NameClash[] } {
  const owner = new Map<string, string>();
  const kept: Offered<T>[] = [];
  const clashes: NameClash[] = [];
  for (const offer of offers) {
    const name = key(offer.item);
    const first = owner.get(name);
    if (first === undefined) {
      owner.set(name, offer.server);
      kept.push(offer);
    } else if (first !== offer.server) {
      clashes.push({ kind, name, servers: [first, offer.server] });
    }
  }
  return { kept, clashes };
}

/** A stable key for a clash, so the same clash is reported once. */
export function clashKey(clash: NameClash): string {
  return `${clash.kind}\u0000${clash.name}\u0000${clash.servers.join("\u0000")}`;
}
