/**
 * Approving a server's definitions: the pins it would get from what it lists
 * now, and the difference from what was pinned, to show before it is
 * written. Approving the whole server replaces every listed kind (a
 * definition that vanished loses its pin); approving one tool touches only
 * that tool's pin.
 */
import type { DefinitionKind, JsonObject, JsonValue, ListedDefinition } from "@indus/contract";
import { canonicalJson } from "@indus/ledger";
import { structuredPatch } from "diff";
import { withoutHidden } from "./hidden-characters";
import { changedFields, definitionName, pinnedDefinition } from "./pinned-definition";
import { capabilityUnion, pinOf, withListedWith, type KindPins, type ServerPins } from "./pin-book";
import { definitionLabel } from "./withheld-message";

export type PinChangeKind = "new" | "changed" | "removed";

export interface PinChange {
  readonly kind: DefinitionKind;
  readonly name: string;
  readonly change: PinChangeKind;
  /** For `changed`: the fields that differ. */
  readonly fields?: readonly string[];
  readonly before?: JsonObject;
  readonly after?: JsonObject;
}

/** What a server lists now, per kind (a kind left out is not touched). */
export type Listings = Partial<Readonly<Record<DefinitionKind, readonly ListedDefinition[]>>>;

/** Which definition to approve alone. */
export interface OnlyDefinition {
  readonly kind: DefinitionKind;
  readonly name: string;
}

function kindChanges(kind: DefinitionKind, before: KindPins, after: KindPins): PinChange[] {
  const changes: PinChange[] = [];
  for (const [name, pin] of Object.entries(after)) {
    const old = before[name];
    if (old === undefined) changes.push({ kind, name, change: "new", after: pin.definition });
    else if (old.digest !== pin.digest) {
      const fields = changedFields(old.definition, pin.definition);
      changes.push({ kind, name, change: "changed", fields, before: old.definition, after: pin.definition });
    }
  }
  for (const [name, pin] of Object.entries(before)) {
    if (after[name] === undefined) changes.push({ kind, name, change: "removed", before: pin.definition });
  }
  return changes;
}

/**
 * The pins approving `listings` gives `current`, and every difference;
 * `listedWith` names the client capabilities the listing connection declared.
 */
export function approvePins(
  current: ServerPins | undefined,
  listings: Listings,
  only?: OnlyDefinition,
  listedWith: readonly string[] = [],
): { pins: ServerPins; changes: PinChange[] } {
  let pins: ServerPins = { ...current };
  const changes: PinChange[] = [];
  for (const [kind, listed] of Object.entries(listings) as [DefinitionKind, readonly ListedDefinition[]][]) {
    if (only !== undefined && only.kind !== kind) continue;
    const before = current?.[kind] ?? {};
    const fresh = listed
      .map((l) => ({ name: definitionName(kind, l.item), pin: pinOf(pinnedDefinition(kind, l)) }))
      .filter((entry) => only === undefined || entry.name === only.name);
    const after: Record<string, (typeof fresh)[number]["pin"]> = only === undefined ? {} : { ...before };
    for (const entry of fresh) after[entry.name] = entry.pin;
    changes.push(...kindChanges(kind, before, after));
    // One tool approved keeps what the kind was listed with; a whole kind is as listed now.
    const names = only === undefined ? listedWith : capabilityUnion(pins.listedWith?.[kind] ?? [], listedWith);
    pins = withListedWith({ ...pins, [kind]: after }, kind, names);
  }
  return { pins, changes };
}

const MAX_SHOWN_CHARS = 4_000;

/** A field's value as lines to diff: indented JSON (compact when too deep), hidden characters named. */
function shown(value: JsonValue | undefined): string {
  if (value === undefined) return "";
  let text: string;
  try {
    text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  } catch {
    text = canonicalJson(value);
  }
  const visible = withoutHidden(text) === text ? text : escapeHidden(text);
  return `${visible.length > MAX_SHOWN_CHARS ? `${visible.slice(0, MAX_SHOWN_CHARS)}...` : visible}\n`;
}

/** Every character outside printable ASCII and common letters, as `\u{...}`, so what was hidden shows. */
function escapeHidden(text: string): string {
  let out = "";
  for (const char of text) out += withoutHidden(char) === char ? char : `\\u{${char.codePointAt(0)!.toString(16)}}`;
  return out;
}

/** The lines that show one change to a person: a heading, then a unified diff per changed field. */
export function describePinChange(server: string, change: PinChange): string[] {
  const label = definitionLabel(server, change.kind, change.name);
  if (change.change === "new") return [`+ ${label} (new)`];
  if (change.change === "removed") return [`- ${label} (no longer listed: its pin is dropped)`];
  const lines = [`~ ${label} changed: ${(change.fields ?? []).join(", ")}`];
  for (const field of change.fields ?? []) {
    const patch = structuredPatch(
      "pinned",
      "now",
      shown(change.before?.[field]),
      shown(change.after?.[field]),
      "",
      "",
      {
        context: 2,
      },
    );
    lines.push(`    ${field}:`);
    for (const hunk of patch.hunks) for (const line of hunk.lines) lines.push(`      ${line}`);
  }
  return lines;
}
