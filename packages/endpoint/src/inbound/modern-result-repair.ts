/**
 * Liberal reading of 2026-era results. The SDK's 2026 codec checks every
 * result against the strict wire schema before any caller sees it, so one
 * bad field throws the whole result away ("Invalid result for tools/list").
 * Repaired here, before the codec, each with an issue naming the field and
 * the value: a missing `resultType` is `complete` (the spec says to assume
 * it, silently), a `ttlMs` that is no whole number of ms ≥ 0 is 0 (do not
 * cache), a `cacheScope` other than `public`/`private` is `private`.
 */
/** The results that carry cache hints (SEP-2549 `CacheableResult`). */
const CACHEABLE = new Set([
  "tools/list",
  "prompts/list",
  "resources/list",
  "resources/templates/list",
  "resources/read",
]);

/** A server's value as a short phrase for an issue (bounded: it is the server's say). */
export function shown(value: unknown): string {
  if (value === undefined) return "absent";
  if (typeof value === "object") return value === null ? "null" : Array.isArray(value) ? "an array" : "an object";
  const text =
    typeof value === "string"
      ? JSON.stringify(value)
      : typeof value === "number" || typeof value === "boolean"
        ? String(value)
        : typeof value;
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function repairCacheHints(result: Record<string, unknown>, issues: string[]): void {
  const ttl = result["ttlMs"];
  if (typeof ttl !== "number" || !Number.isInteger(ttl) || ttl < 0) {
    issues.push(`ttlMs ${shown(ttl)} is not a whole number of ms ≥ 0; read as 0 (not cached)`);
    result["ttlMs"] = 0;
  }
  const scope = result["cacheScope"];
  if (scope !== "public" && scope !== "private") {
    issues.push(`cacheScope ${shown(scope)} is neither "public" nor "private"; read as "private"`);
    result["cacheScope"] = "private";
  }
}

/** Repair `result` (the answer to `method`) in place; the issues, each naming the field and its value. */
export function repairModernResult(method: string, result: Record<string, unknown>): string[] {
  const issues: string[] = [];
  if (result["resultType"] === undefined) result["resultType"] = "complete";
  if (CACHEABLE.has(method)) repairCacheHints(result, issues);
  return issues;
}
