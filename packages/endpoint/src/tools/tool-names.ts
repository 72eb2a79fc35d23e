/**
 * Model-facing tool names. Providers accept only `TOOL_NAME_PATTERN` (contract's
 * `names.ts`), while MCP tool names may hold dots, slashes or anything else, and
 * a server id plus a long tool name easily passes `MAX_TOOL_NAME_LENGTH`. Every name is made legal here,
 * and names that collide after sanitizing are told apart deterministically, so
 * every tool stays callable.
 */
import { createHash } from "node:crypto";
import { MAX_TOOL_NAME_LENGTH, TOOL_NAME_PATTERN, withNameSuffix } from "@indus/contract";

export { MAX_TOOL_NAME_LENGTH } from "@indus/contract";
const HASH_LENGTH = 8;

/** A short, stable fingerprint of `value` (hex). */
export function shortHash(value: string): string {
  return createHash("sha256").update(value).digest("hex").slice(0, HASH_LENGTH);
}

/** `base` cut so that `_<hash of hashed>` fits within the length limit. */
function withHashSuffix(base: string, hashed: string): string {
  return withNameSuffix(base, shortHash(hashed));
}

/**
 * A legal tool name for `name`: characters outside `[a-zA-Z0-9_-]` become
 * `_`; a name over the length limit is cut and gets a hash of the original, so
 * two long names sharing a prefix stay apart.
 */
export function sanitizeToolName(name: string): string {
  const replaced = name.replace(/[^a-zA-Z0-9_-]/g, "_");
  if (replaced.length === 0) return `_${shortHash(name)}`;
  if (replaced.length <= MAX_TOOL_NAME_LENGTH) return replaced;
  return withHashSuffix(replaced, name);
}

export function isLegalToolName(name: string): boolean {
  return TOOL_NAME_PATTERN.test(name);
}

/**
 * Legal, distinct names for a set of distinct originals, as a map
 * original → name. Deterministic in the set (not its order): within a group
 * that sanitizes to one name, an original that was already legal keeps it,
 * else the lexically smallest original does; the others get a hash of their
 * own original appended. So a name changes only when a colliding tool appears.
 */
export function assignToolNames(originals: Iterable<string>): Map<string, string> {
  const groups = new Map<string, string[]>();
  for (const original of new Set(originals)) {
    const candidate = sanitizeToolName(original);
    const group = groups.get(candidate);
    if (group) group.push(original);
    else groups.set(candidate, [original]);
  }
  const assigned = new Map<string, string>();
  const taken = new Set<string>(groups.keys());
  for (const [candidate, group] of groups) {
    group.sort((a, b) => {
      const exactA = a === candidate ? 0 : 1;
      const exactB = b === candidate ? 0 : 1;
      return exactA - exactB || (a < b ? -1 : a > b ? 1 : 0);
    });
    assigned.set(group[0]!, candidate);
    for (const original of group.slice(1)) {
      let name = withHashSuffix(candidate, original);
      // A hash suffix meeting another name is astronomically rare; salt until free.
      for (let salt = 1; taken.has(name); salt += 1) name = withHashSuffix(candidate, `${original}#${salt}`);
      taken.add(name);
      assigned.set(original, name);
    }
  }
  return assigned;
}
