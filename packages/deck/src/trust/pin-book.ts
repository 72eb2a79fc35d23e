/**
 * The pins of one lock file, as data: per server, per kind, the pinned
 * definition of each name and its digest. The file is JSON with sorted keys,
 * one definition under each name, so it reads and diffs well in review (a
 * changed description shows as a changed line). A digest that does not match
 * its definition (a hand edit) voids that pin: the definition is then new.
 */
import { DEFINITION_KINDS, isRecord, type DefinitionKind, type JsonObject } from "@indus/contract";
import { canonicalJson, contentDigest } from "@indus/ledger";

export interface Pin {
  /** `contentDigest` of `definition`. */
  readonly digest: string;
  /** The pinned fields (see `pinnedDefinition`), kept so a change can be shown field by field. */
  readonly definition: JsonObject;
}

/** Name → pin, for one kind of one server. */
export type KindPins = Readonly<Record<string, Pin>>;

/** What is pinned of one server; a kind never listed yet has no entry (it is pinned when first listed). */
export type ServerPins = Partial<Readonly<Record<DefinitionKind, KindPins>>>;

export interface PinBook {
  readonly servers: Readonly<Record<string, ServerPins>>;
}

export const LOCK_FILE_VERSION = 1;

/** The kind's section name in the file. */
const SECTIONS: Readonly<Record<DefinitionKind, string>> = {
  tool: "tools",
  prompt: "prompts",
  resource: "resources",
  "resource-template": "resourceTemplates",
};

export const EMPTY_PIN_BOOK: PinBook = { servers: {} };

export function pinOf(definition: JsonObject): Pin {
  return { digest: contentDigest(definition), definition };
}

function kindPinsOf(raw: unknown, problems: string[], where: string): KindPins {
  const pins: Record<string, Pin> = {};
  if (!isRecord(raw)) return pins;
  for (const [name, entry] of Object.entries(raw)) {
    if (!isRecord(entry) || !isRecord(entry["definition"]) || typeof entry["digest"] !== "string") {
      problems.push(`${where}.${name}: not a pin (needs digest and definition); ignored`);
      continue;
    }
    const pin = pinOf(entry["definition"] as JsonObject);
    if (pin.digest !== entry["digest"]) {
      problems.push(`${where}.${name}: digest does not match its definition (edited by hand?); ignored`);
      continue;
    }
    pins[name] = pin;
  }
  return pins;
}

/** Reads a lock file's text; what cannot be read is reported and left out (never thrown). */
export function parsePinBook(text: string): { book: PinBook; problems: string[] } {
  const problems: string[] = [];
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    return { book: EMPTY_PIN_BOOK, problems: [`not JSON: ${(error as Error).message}`] };
  }
  if (!isRecord(doc) || !isRecord(doc["servers"])) return { book: EMPTY_PIN_BOOK, problems: ["no servers object"] };
  if (doc["version"] !== LOCK_FILE_VERSION)
    problems.push(`version ${String(doc["version"])} is not ${LOCK_FILE_VERSION}; read as ${LOCK_FILE_VERSION}`);
  const servers: Record<string, ServerPins> = {};
  for (const [server, raw] of Object.entries(doc["servers"])) {
    if (!isRecord(raw)) continue;
    const pins: Partial<Record<DefinitionKind, KindPins>> = {};
    for (const kind of DEFINITION_KINDS) {
      const section = raw[SECTIONS[kind]];
      if (section !== undefined) pins[kind] = kindPinsOf(section, problems, `${server}.${SECTIONS[kind]}`);
    }
    servers[server] = pins;
  }
  return { book: { servers }, problems };
}

/** The lock file's text: sorted keys, two-space indent, a final newline. */
export function serializePinBook(book: PinBook): string {
  const servers: Record<string, Record<string, unknown>> = {};
  for (const [server, pins] of Object.entries(book.servers)) {
    const sections: Record<string, unknown> = {};
    for (const kind of DEFINITION_KINDS) {
      const kindPins = pins[kind];
      if (kindPins !== undefined) sections[SECTIONS[kind]] = kindPins;
    }
    servers[server] = sections;
  }
  // Canonical first (sorted at every level), then indented for people; a
  // definition too deep for the recursive indenter keeps the compact form.
  const canonical = canonicalJson({ version: LOCK_FILE_VERSION, servers });
  try {
    return `${JSON.stringify(JSON.parse(canonical), null, 2)}\n`;
  } catch {
    return `${canonical}\n`;
  }
}

/** `book` with `kind` of `server` replaced by `pins` (other kinds and servers untouched). */
export function withKindPins(book: PinBook, server: string, kind: DefinitionKind, pins: KindPins): PinBook {
  return { servers: { ...book.servers, [server]: { ...book.servers[server], [kind]: pins } } };
}
