/**
 * Puts a long line's long strings back where their markers stand in its
 * parsed structure. The markers carry a random part per line, so a server
 * cannot forge one.
 */
type Container = Record<string, unknown> | unknown[];

/** `value` with every `"<marker><n>"` (as a value or a key) replaced by `longs[n]`. */
export function restoreLongStrings(value: unknown, marker: string, longs: readonly string[]): unknown {
  if (longs.length === 0) return value;
  const restore = (text: string): string =>
    text.startsWith(marker) ? (longs[Number(text.slice(marker.length))] ?? text) : text;
  if (typeof value === "string") return restore(value);
  let left = longs.length;
  const stack: Container[] = isContainer(value) ? [value] : [];
  // Iterative: the structure may nest as deep as JSON.parse allows.
  for (let next = stack.pop(); next !== undefined && left > 0; next = stack.pop()) {
    const keys = Array.isArray(next) ? next.keys() : Object.keys(next);
    const container = next as Record<string | number, unknown>;
    for (const key of keys) {
      let item = container[key];
      if (typeof item === "string" && item.startsWith(marker)) {
        item = restore(item);
        container[key] = item;
        left -= 1;
      } else if (isContainer(item)) stack.push(item);
      if (typeof key === "string" && key.startsWith(marker)) {
        delete container[key];
        container[restore(key)] = item;
        left -= 1;
      }
    }
  }
  return value;
}

function isContainer(value: unknown): value is Container {
  return typeof value === "object" && value !== null;
}
