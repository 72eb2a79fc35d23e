/**
 * What approving a row of another tool's project file binds to: the row as
 * written (translated to indus's fields, placeholders not expanded), with
 * literal `env`, header and secret values kept only as digests (the state
 * file never holds a secret, yet a changed value is still a changed row).
 * A row whose digest differs from the approved one is pending again, and
 * the difference is shown field by field.
 */
import { isRecord, type JsonObject } from "@indus/contract";
import { canonicalJson, contentDigest } from "@indus/ledger";

/** The fields that name a secret's value. */
const SECRET_MAPS = ["env", "headers"] as const;

/** A value written as placeholders only (`${API_KEY}`) is not a secret; anything else is kept as its digest. */
function shownValue(value: unknown): unknown {
  if (typeof value === "string" && /^(\$\{[^}]+\}|\s)*$/u.test(value)) return value;
  return `sha256:${contentDigest(value).slice(0, 16)}`;
}

/** The row as approval sees it: literal secret values replaced by digests. */
export function shownRow(row: Readonly<Record<string, unknown>>): JsonObject {
  const shown: Record<string, unknown> = { ...row };
  delete shown["enabled"];
  for (const field of SECRET_MAPS) {
    const map = row[field];
    if (isRecord(map)) shown[field] = Object.fromEntries(Object.entries(map).map(([k, v]) => [k, shownValue(v)]));
  }
  const oauth = row["oauth"];
  if (isRecord(oauth) && oauth["clientSecret"] !== undefined)
    shown["oauth"] = { ...oauth, clientSecret: shownValue(oauth["clientSecret"]) };
  return JSON.parse(canonicalJson(shown)) as JsonObject;
}

/** The digest an approval of `row` records. */
export function rowDigest(row: Readonly<Record<string, unknown>>): string {
  return contentDigest(shownRow(row));
}

const MAX_VALUE = 160;

function compact(value: unknown): string {
  if (value === undefined) return "(none)";
  const text = typeof value === "string" ? JSON.stringify(value) : canonicalJson(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE)}...` : text;
}

/** One line per difference: `command: "node" → "bash"`, `env.TOKEN: changed`. */
export function rowDifference(before: JsonObject, after: JsonObject): { fields: string[]; lines: string[] } {
  const fields: string[] = [];
  const lines: string[] = [];
  for (const key of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    const [was, now] = [before[key], after[key]];
    if (canonicalJson(was ?? null) === canonicalJson(now ?? null)) continue;
    fields.push(key);
    if ((SECRET_MAPS as readonly string[]).includes(key) && (isRecord(was) || isRecord(now))) {
      lines.push(...mapDifference(key, isRecord(was) ? was : {}, isRecord(now) ? now : {}));
    } else lines.push(`${key}: ${compact(was)} → ${compact(now)}`);
  }
  return { fields, lines };
}

function mapDifference(field: string, was: Record<string, unknown>, now: Record<string, unknown>): string[] {
  const lines: string[] = [];
  for (const name of [...new Set([...Object.keys(was), ...Object.keys(now)])].sort()) {
    if (!(name in was)) lines.push(`${field}.${name}: added`);
    else if (!(name in now)) lines.push(`${field}.${name}: removed`);
    else if (was[name] !== now[name]) lines.push(`${field}.${name}: changed`);
  }
  return lines;
}
