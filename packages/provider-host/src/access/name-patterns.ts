/**
 * Access-policy patterns, compiled once: `*` stands for any run of
 * characters (`/` included, so `memory://*` covers a server's whole URI
 * space), `?` for one character; everything else is literal. Matching is
 * the greedy two-pointer walk (no regular expressions), so a caller's long
 * name cannot make it backtrack.
 */

/** True when a name matches one of the compiled patterns. */
export type NameTest = (name: string) => boolean;

const NOTHING: NameTest = () => false;
const ANYTHING: NameTest = () => true;

export function namePatterns(patterns: readonly string[] | undefined): NameTest {
  if (patterns === undefined || patterns.length === 0) return NOTHING;
  if (grantsAll(patterns)) return ANYTHING;
  const literals = new Set(patterns.filter((pattern) => !isWildcard(pattern)));
  const wildcards = patterns.filter(isWildcard);
  if (wildcards.length === 0) return (name) => literals.has(name);
  return (name) => literals.has(name) || wildcards.some((pattern) => wildcardMatch(pattern, name));
}

/** True when the patterns grant every name. */
export function grantsAll(patterns: readonly string[] | undefined): boolean {
  return patterns?.includes("*") === true;
}

function isWildcard(pattern: string): boolean {
  return pattern.includes("*") || pattern.includes("?");
}

/** Glob match in O(pattern × name) at worst: a star's span is widened one character at a time. */
export function wildcardMatch(pattern: string, name: string): boolean {
  let p = 0;
  let n = 0;
  let star = -1;
  let resume = 0;
  while (n < name.length) {
    const char = pattern[p];
    if (char === "*") {
      star = p++;
      resume = n;
    } else if (char !== undefined && (char === "?" || char === name[n])) {
      p++;
      n++;
    } else if (star >= 0) {
      p = star + 1;
      n = ++resume;
    } else {
      return false;
    }
  }
  while (pattern[p] === "*") p++;
  return p === pattern.length;
}
