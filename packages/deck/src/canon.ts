/**
 * Matching user-typed tool names (`--tools web_fetch,Read`): case-insensitive,
 * `_` and `-` ignored, so `web_fetch`, `webfetch` and `web-fetch` are one name.
 */
import type { Capability } from "./vocabulary";

export function canonToolName(name: string): string {
  return name.trim().toLowerCase().replace(/[_-]/g, "");
}

export interface ToolSelection {
  /** True for a capability the list names; everything passes when the list is empty. */
  readonly keep: (cap: Pick<Capability, "name">) => boolean;
  /** Names that matched none of `available`, as typed. */
  readonly unknown: readonly string[];
}

/** A `--tools` allow-list over the names a deck offers. */
export function selectTools(names: readonly string[], available: readonly string[]): ToolSelection {
  const wanted = new Map<string, string>();
  for (const raw of names.flatMap((n) => n.split(","))) {
    if (raw.trim() !== "") wanted.set(canonToolName(raw), raw.trim());
  }
  const offered = new Set(available.map(canonToolName));
  const unknown = [...wanted].filter(([canon]) => !offered.has(canon)).map(([, raw]) => raw);
  if (wanted.size === 0) return { keep: () => true, unknown };
  return { keep: (cap) => wanted.has(canonToolName(cap.name)), unknown };
}
