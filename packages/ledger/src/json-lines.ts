import { isRecord } from "@indus/contract";
import {
  describeCapability,
  type CapabilityDescriptor,
  type DescribeCapability,
  type LedgerCapability,
} from "./capability";
import type { BridgeEntry, EnrollEntry, RetireEntry } from "./entry";
import type { BridgeKey } from "./keys";

/**
 * Rebuilds a live capability from what was persisted for it. Throwing is
 * allowed: parsing stops there with an `unresolved` error on that line.
 */
export type ResolveCapability<C> = (
  descriptor: CapabilityDescriptor,
  entry: { readonly key: BridgeKey; readonly server: string; readonly seq: number },
) => C;

/** Why a line of a persisted log was refused. */
export type LogLineErrorKind =
  /** Not JSON, and not the last line. */
  | "invalid-json"
  /** The last line is cut short: no closing newline and not JSON (a torn write). */
  | "truncated"
  /** JSON, but not an entry: a field is missing or has the wrong type. */
  | "invalid-entry"
  /** Its seq does not come after the previous line's. */
  | "out-of-order"
  /** The resolver refused the capability. */
  | "unresolved";

export interface LogLineError {
  readonly kind: LogLineErrorKind;
  /** 1-based line number in the text. */
  readonly line: number;
  /** Says which line and what is wrong with it. */
  readonly message: string;
}

/**
 * The outcome of reading a log: every entry up to the first bad line, and
 * the error for that line if there was one. Reading never throws away the
 * good prefix; whether to go on with it is the caller's call.
 */
export interface ParsedLog<C extends LedgerCapability> {
  readonly entries: readonly BridgeEntry<C>[];
  readonly error?: LogLineError;
}

/**
 * One entry as one line of JSON (no newline). Field order is fixed:
 * `seq, op, key, server, at`, then `capability` on an enroll, written as
 * `describe(capability)` (default: name, description, parameters).
 */
export function toJsonLine<C extends LedgerCapability>(
  entry: BridgeEntry<C>,
  describe: DescribeCapability<C> = describeCapability,
): string {
  const { seq, op, key, server, at } = entry;
  if (entry.op === "enroll")
    return JSON.stringify({ seq, op, key, server, at, capability: describe(entry.capability) });
  return JSON.stringify({ seq, op, key, server, at });
}

/** A log as JSON Lines: one entry per line, each line ending in `\n`. Append-friendly. */
export function serializeLog<C extends LedgerCapability>(
  log: Iterable<BridgeEntry<C>>,
  describe: DescribeCapability<C> = describeCapability,
): string {
  const lines: string[] = [];
  for (const entry of log) lines.push(toJsonLine(entry, describe), "\n");
  return lines.join("");
}

/**
 * Reads JSON Lines written by `serializeLog`. Blank lines and a `\r` before a
 * newline are tolerated. Each line must be one entry with a positive integer
 * seq above the previous line's; an enroll's capability goes through
 * `resolve`. Reading stops at the first line that fails, and `error` names
 * it; `entries` holds everything before it. Never throws.
 */
export function parseLog<C extends LedgerCapability>(text: string, resolve: ResolveCapability<C>): ParsedLog<C> {
  const entries: BridgeEntry<C>[] = [];
  let previousSeq = 0;
  let start = 0;
  for (let line = 1; start < text.length; line++) {
    const newline = text.indexOf("\n", start);
    const end = newline < 0 ? text.length : newline;
    let raw = text.slice(start, end);
    start = end + 1;
    if (raw.endsWith("\r")) raw = raw.slice(0, -1);
    if (raw.trim() === "") continue;

    const refuse = (kind: LogLineErrorKind, what: string): ParsedLog<C> =>
      Object.freeze({
        entries: Object.freeze(entries),
        error: Object.freeze({ kind, line, message: `line ${line}: ${what}` }),
      });

    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      return newline < 0
        ? refuse("truncated", `truncated entry (the log ends mid-line without a newline; ${reason}): ${preview(raw)}`)
        : refuse("invalid-json", `not valid JSON (${reason}): ${preview(raw)}`);
    }
    const shape = checkEntry(value);
    if (typeof shape === "string") return refuse("invalid-entry", shape);
    if (shape.seq <= previousSeq)
      return refuse("out-of-order", `seq ${shape.seq} does not come after seq ${previousSeq} on the line before`);

    const base = { key: shape.key as BridgeKey, server: shape.server, seq: shape.seq, at: shape.at };
    if (shape.op === "enroll") {
      let capability: C;
      try {
        capability = resolve(shape.capability, base);
      } catch (err) {
        return refuse(
          "unresolved",
          `the resolver refused capability ${JSON.stringify(shape.capability.name)}: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
      entries.push(Object.freeze<EnrollEntry<C>>({ op: "enroll", ...base, capability }));
    } else {
      entries.push(Object.freeze<RetireEntry>({ op: "retire", ...base }));
    }
    previousSeq = shape.seq;
  }
  return Object.freeze({ entries: Object.freeze(entries) });
}

type CheckedEntry =
  | { op: "enroll"; seq: number; key: string; server: string; at: string; capability: CapabilityDescriptor }
  | { op: "retire"; seq: number; key: string; server: string; at: string };

/** The entry a parsed line holds, or what is wrong with it. */
function checkEntry(value: unknown): CheckedEntry | string {
  if (!isRecord(value)) return `expected an entry object, got ${typeName(value)}`;
  const { seq, op, key, server, at, capability } = value;
  if (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq < 1)
    return `"seq" must be a positive integer, got ${show(seq)}`;
  if (op !== "enroll" && op !== "retire") return `"op" must be "enroll" or "retire", got ${show(op)}`;
  if (typeof key !== "string" || key === "") return `"key" must be a non-empty string, got ${show(key)}`;
  if (typeof server !== "string") return `"server" must be a string, got ${show(server)}`;
  if (typeof at !== "string") return `"at" must be a string (ISO-8601), got ${show(at)}`;
  if (op === "retire") {
    if (capability !== undefined) return `a retire entry carries no "capability"`;
    return { op, seq, key, server, at };
  }
  if (!isRecord(capability)) return `an enroll entry needs a "capability" object, got ${show(capability)}`;
  if (typeof capability.name !== "string") return `"capability.name" must be a string, got ${show(capability.name)}`;
  if (capability.description !== undefined && typeof capability.description !== "string") {
    return `"capability.description" must be a string when present, got ${show(capability.description)}`;
  }
  return { op, seq, key, server, at, capability: capability as CapabilityDescriptor };
}

function typeName(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

function show(value: unknown): string {
  return value === undefined ? "nothing" : preview(JSON.stringify(value));
}

function preview(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
