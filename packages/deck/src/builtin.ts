/**
 * The one table of built-in tools: wire id, deck-side title and summary,
 * profile membership and factory. Every other view of the built-ins (ids,
 * membership, cards) is derived from this table, and a built-in's `readOnly`
 * is derived from its membership, so the two can never drift.
 */
import type { Capability, CapabilityCard, CapabilityId, DeckContext } from "./vocabulary";
import type { Profile } from "./vocabulary";
import { DeckFault, capabilityId } from "./vocabulary";
import { bashTool } from "./tools/bash";
import { editTool } from "./tools/edit";
import { findTool } from "./tools/find";
import { grepTool } from "./tools/grep";
import { lsTool } from "./tools/ls";
import { processTool } from "./tools/process";
import { readTool } from "./tools/read";
import { todoReadTool, todoSetTool } from "./tools/todo-list";
import { webfetchTool } from "./tools/webfetch";
import { websearchTool } from "./tools/websearch";
import { writeTool } from "./tools/write";

/**
 * Membership of a read-only built-in. Profile names are inverted on purpose
 * (kept from the earlier editions, pinned by tests): `authoring` is the
 * observe-only set, `survey` every built-in.
 */
export const READ_ONLY_PROFILES: readonly Profile[] = Object.freeze(["authoring", "survey"] as Profile[]);
/** Membership of a mutating built-in. */
export const MUTATING_PROFILES: readonly Profile[] = Object.freeze(["survey"] as Profile[]);

export interface BuiltinDescriptor {
  readonly id: CapabilityId;
  readonly title: string;
  readonly summary: string;
  readonly profiles: readonly Profile[];
  readonly factory: (ctx: DeckContext) => Capability;
}

/** One table row: id, `[title, summary]`, the profiles that offer it, and what builds it. */
const row = (
  id: string,
  [title, summary]: readonly [string, string],
  profiles: readonly Profile[],
  factory: (ctx: DeckContext) => Capability,
): BuiltinDescriptor => Object.freeze({ id: capabilityId(id), title, summary, profiles, factory });

const TABLE: readonly BuiltinDescriptor[] = Object.freeze([
  row(
    "read",
    ["Read file", "Numbered lines with offset/limit; images as image content; binaries refused."],
    READ_ONLY_PROFILES,
    readTool,
  ),
  row(
    "ls",
    ["List directory", "Sorted directory entries, .gitignore-aware, optional tree depth."],
    READ_ONLY_PROFILES,
    lsTool,
  ),
  row(
    "grep",
    ["Search file contents", "Regex search (ripgrep or JS): files, content with context, or counts."],
    READ_ONLY_PROFILES,
    grepTool,
  ),
  row(
    "find",
    ["Find files by name", "Glob match over the .gitignore-aware file list, sorted and capped."],
    READ_ONLY_PROFILES,
    findTool,
  ),
  row(
    "websearch",
    ["Web search", "Search through a configured backend (SearXNG JSON API)."],
    READ_ONLY_PROFILES,
    websearchTool,
  ),
  row(
    "webfetch",
    ["Fetch URL", "GET an http(s) URL with bounded redirects, size and time; HTML to Markdown."],
    READ_ONLY_PROFILES,
    webfetchTool,
  ),
  row("todo_read", ["Read checklist", "Show the session checklist."], READ_ONLY_PROFILES, todoReadTool),
  row(
    "write",
    ["Write file", "Create or overwrite a file (read-before-edit gate), with a short diff."],
    MUTATING_PROFILES,
    writeTool,
  ),
  row(
    "edit",
    ["Edit file", "Replace an exact, unique string (or all with replace_all), with a short diff."],
    MUTATING_PROFILES,
    editTool,
  ),
  row(
    "bash",
    ["Run shell command", "One command in its own process group: timeout, head+tail output cap, exit status."],
    MUTATING_PROFILES,
    bashTool,
  ),
  row(
    "process",
    ["Manage background processes", "Start, list, read and stop background processes with bounded buffers."],
    MUTATING_PROFILES,
    processTool,
  ),
  row("todo_set", ["Update checklist", "Replace the session checklist."], MUTATING_PROFILES, todoSetTool),
]);

/** A built-in is read-only exactly when it belongs to the observe-only (`authoring`) set. */
export function isReadOnlyMembership(profiles: readonly Profile[]): boolean {
  return profiles.includes("authoring");
}

function buildRow(descriptor: BuiltinDescriptor, ctx: DeckContext): Capability {
  const cap = descriptor.factory(ctx);
  const readOnly = isReadOnlyMembership(descriptor.profiles);
  return cap.readOnly === readOnly ? cap : { ...cap, readOnly, run: cap.run.bind(cap) };
}

export function builtinDescriptors(): readonly BuiltinDescriptor[] {
  return TABLE;
}

export function builtinIds(): CapabilityId[] {
  return TABLE.map((d) => d.id);
}

export function builtinProfiles(): ReadonlyMap<CapabilityId, readonly Profile[]> {
  return new Map(TABLE.map((d) => [d.id, d.profiles]));
}

/** Each built-in as a catalog row. */
export function builtinCards(): CapabilityCard[] {
  return TABLE.map((d) => ({
    id: d.id,
    title: d.title,
    summary: d.summary,
    profiles: d.profiles,
    build: (ctx) => buildRow(d, ctx),
  }));
}

export function buildBuiltin(id: string, ctx: DeckContext): Capability {
  const descriptor = TABLE.find((d) => d.id === id);
  if (!descriptor)
    throw new DeckFault("unknown-capability", `no built-in tool "${id}"; built-ins are ${builtinIds().join(", ")}`);
  return buildRow(descriptor, ctx);
}

export function buildBuiltinsForProfile(profile: Profile, ctx: DeckContext): Capability[] {
  return TABLE.filter((d) => profile === "all" || d.profiles.includes(profile)).map((d) => buildRow(d, ctx));
}
