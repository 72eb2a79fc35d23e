/**
 * Inspection of one definition before the model sees it: every string in it
 * (descriptions, titles, schema property names, enum values, defaults,
 * prompt arguments) is read for hidden characters, words that override the
 * model's instructions and names of other servers' tools, and the
 * descriptions for size. The walk is iterative and bounded, so a hostile
 * definition (deep, wide or huge) costs a bounded amount of work and is
 * itself reported as oversized.
 */
import type { DefinitionFinding, JsonObject } from "@indus/contract";
import { crossServerMentions, type KnownTools } from "./cross-server";
import { decodeTagText, describeHidden, hiddenCharacters, withoutHidden } from "./hidden-characters";
import { foldText, overridePhrases } from "./override-phrases";

/** A description longer than this is flagged: it is a document, not a description. */
export const MAX_DESCRIPTION_CHARS = 4_096;
/** All the text of one definition together. */
export const MAX_DEFINITION_CHARS = 65_536;
/** Strings and keys visited before the walk stops (and flags the definition). */
const MAX_STRINGS = 20_000;
/** How much of one string the phrase checks read (its size is flagged on its own). */
const PHRASE_WINDOW = 16_384;

/** A path as a linked list: O(1) a step, spelled out only for a finding. */
interface PathLink {
  readonly up: PathLink | undefined;
  readonly step: string | number;
  readonly key?: boolean;
}

interface Text {
  readonly at: PathLink | undefined;
  readonly text: string;
}

export interface InspectContext {
  readonly server: string;
  readonly known: KnownTools;
}

/** `inputSchema.properties.path.description`, or `... (key)` for a property name. */
function spell(link: PathLink | undefined): string {
  const steps: string[] = [];
  for (let l = link; l; l = l.up) steps.push(typeof l.step === "number" ? `[${l.step}]` : `.${l.step}`);
  const text = steps.reverse().join("").replace(/^\./u, "");
  return link?.key ? `${text} (key)` : text;
}

/** Every string and key in `definition`, with where it is; `complete` false when the walk hit its bound. */
function textsOf(definition: JsonObject): { texts: Text[]; complete: boolean } {
  const texts: Text[] = [];
  const stack: { value: unknown; at: PathLink | undefined }[] = [{ value: definition, at: undefined }];
  while (stack.length > 0) {
    if (texts.length >= MAX_STRINGS) return { texts, complete: false };
    const { value, at } = stack.pop()!;
    if (typeof value === "string") texts.push({ at, text: value });
    else if (Array.isArray(value)) value.forEach((item, i) => stack.push({ value: item, at: { up: at, step: i } }));
    else if (typeof value === "object" && value !== null) {
      for (const [key, member] of Object.entries(value)) {
        texts.push({ at: { up: at, step: key, key: true }, text: key });
        stack.push({ value: member, at: { up: at, step: key } });
      }
    }
  }
  return { texts, complete: true };
}

function hiddenFindings(texts: readonly Text[]): DefinitionFinding[] {
  const findings: DefinitionFinding[] = [];
  for (const { at, text } of texts) {
    for (const run of hiddenCharacters(text)) {
      const smuggled = run.cls === "tag" ? decodeTagText(text) : "";
      const spelled =
        smuggled === "" ? "" : `, spelling "${smuggled.slice(0, 120)}${smuggled.length > 120 ? "..." : ""}"`;
      findings.push({ rule: "hidden-characters", at: spell(at), detail: `${describeHidden(run)}${spelled}` });
    }
  }
  return findings;
}

function sizeFindings(texts: readonly Text[], complete: boolean): DefinitionFinding[] {
  const findings: DefinitionFinding[] = [];
  let total = 0;
  for (const { at, text } of texts) {
    total += text.length;
    if (at?.step === "description" && !at.key && text.length > MAX_DESCRIPTION_CHARS) {
      findings.push({
        rule: "oversized",
        at: spell(at),
        detail: `${text.length} characters (more than ${MAX_DESCRIPTION_CHARS})`,
      });
    }
  }
  if (total > MAX_DEFINITION_CHARS)
    findings.push({
      rule: "oversized",
      at: "",
      detail: `${total} characters of text (more than ${MAX_DEFINITION_CHARS})`,
    });
  if (!complete) findings.push({ rule: "oversized", at: "", detail: `more than ${MAX_STRINGS} strings and keys` });
  return findings;
}

/** The text the phrase checks read: hidden characters dropped, smuggled tag text spelled out, folded. */
function readable(text: string): string {
  const window = text.length > PHRASE_WINDOW ? text.slice(0, PHRASE_WINDOW) : text;
  const smuggled = decodeTagText(window);
  return foldText(smuggled === "" ? withoutHidden(window) : `${withoutHidden(window)} ${smuggled}`);
}

/** One finding per phrase, at the first string that says it; the whole text is tried once first. */
function phraseFindings(texts: readonly Text[], context: InspectContext): DefinitionFinding[] {
  const folded = texts.map(({ at, text }) => ({ at, text: readable(text) }));
  const all = folded.map((t) => t.text).join("\n");
  const check = (rule: DefinitionFinding["rule"], says: (text: string) => string[]): DefinitionFinding[] => {
    const whole = says(all);
    if (whole.length === 0) return [];
    const findings: DefinitionFinding[] = [];
    for (const detail of whole) {
      const where = folded.find((t) => says(t.text).includes(detail));
      findings.push({ rule, at: spell(where?.at), detail });
    }
    return findings;
  };
  return [
    ...check("override", overridePhrases),
    ...check("cross-server", (text) => crossServerMentions(text, context.server, context.known)),
  ];
}

/** What inspection finds in one pinned definition (empty when nothing). */
export function inspectDefinition(definition: JsonObject, context: InspectContext): DefinitionFinding[] {
  const { texts, complete } = textsOf(definition);
  return [...hiddenFindings(texts), ...phraseFindings(texts, context), ...sizeFindings(texts, complete)];
}
