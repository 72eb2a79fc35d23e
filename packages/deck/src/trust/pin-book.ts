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

/**
 * The client capabilities (`elicitation`, `roots`, `sampling`, `ui` for MCP Apps) a kind was
 * listed with when it was pinned: a server may offer more to a client that
 * declares more (server-everything's `get-roots-list`), which is first use,
 * not a change.
 */
export type ListedWith = Partial<Readonly<Record<DefinitionKind, readonly string[]>>>;

/** What is pinned of one server; a kind never listed yet has no entry (it is pinned when first listed). */
export type ServerPins = Partial<Readonly<Record<DefinitionKind, KindPins>>> & { readonly listedWith?: ListedWith };

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

/** The file's key for `listedWith` (beside the kinds' sections). */
const LISTED_WITH = "listedWith";

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

/** The `listedWith` section: per kind, a list of capability names (anything else is left out). */
function listedWithOf(raw: unknown): ListedWith | undefined {
  if (!isRecord(raw)) return undefined;
  const listed: Partial<Record<DefinitionKind, readonly string[]>> = {};
  for (const kind of DEFINITION_KINDS) {
    const names = raw[SECTIONS[kind]];
    if (Array.isArray(names)) listed[kind] = names.filter((n): n is string => typeof n === "string").slice(0, 16);
  }
  return listed;
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
    const listedWith = listedWithOf(raw[LISTED_WITH]);
    servers[server] = listedWith ? { ...pins, listedWith } : pins;
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
    // No capabilities is the default: only a kind listed with some says so.
    const listedWith = Object.entries(pins.listedWith ?? {})
      .filter(([, names]) => names.length > 0)
      .map(([kind, names]) => [SECTIONS[kind as DefinitionKind], names]);
    if (listedWith.length > 0) sections[LISTED_WITH] = Object.fromEntries(listedWith);
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

/** The capability names `a` and `b` hold between them, sorted. */
export function capabilityUnion(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])].sort();
}

/** Definitions of one kind of one server to pin, and the client capabilities they were listed with. */
export interface MissingPins {
  readonly server: string;
  readonly kind: DefinitionKind;
  readonly pins: KindPins;
  readonly listedWith: readonly string[];
}

/**
 * `book` with each of `pins` added to `kind` of `server` unless that name is
 * pinned already (a pinned definition never changes here: only an approval
 * replaces it), and `listedWith` joined to what the kind was listed with.
 */
export function withMissingPins(book: PinBook, { server, kind, pins, listedWith }: MissingPins): PinBook {
  const standing = book.servers[server];
  const merged = { ...pins, ...standing?.[kind] };
  const listed = capabilityUnion(standing?.listedWith?.[kind] ?? [], listedWith);
  const next = withListedWith({ ...standing, [kind]: merged }, kind, listed);
  return { servers: { ...book.servers, [server]: next } };
}

/** `pins` saying `kind` was listed with `names` (none is the default, so it is left out). */
export function withListedWith(pins: ServerPins, kind: DefinitionKind, names: readonly string[]): ServerPins {
  const { listedWith, ...kinds } = pins;
  const listed = Object.fromEntries(
    Object.entries({ ...listedWith, [kind]: [...names].sort() }).filter(([, each]) => each.length > 0),
  );
  return Object.keys(listed).length > 0 ? { ...kinds, listedWith: listed } : kinds;
}
