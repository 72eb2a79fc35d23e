/**
 * Characters a person reading a definition cannot see but a model reads:
 * zero-width and other invisible format characters, bidirectional controls
 * (text that displays in another order than it is read), the Unicode tag
 * block (an invisible copy of ASCII, used to smuggle whole sentences),
 * variation selectors outside emoji, and control characters. Each is named
 * by code point, never echoed; smuggled tag text is decoded so it can be
 * shown and inspected.
 */

export type HiddenClass = "invisible" | "bidi" | "tag" | "variation-selector" | "control";

export interface HiddenRun {
  readonly cls: HiddenClass;
  /** The code points found, each once, as `U+200B`. */
  readonly codePoints: readonly string[];
  readonly count: number;
}

const INVISIBLE = new Set([
  0x00ad, 0x034f, 0x061c, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x180e, 0x200b, 0x200c, 0x200d, 0x2060, 0x2061, 0x2062,
  0x2063, 0x2064, 0x2065, 0x206a, 0x206b, 0x206c, 0x206d, 0x206e, 0x206f, 0x3164, 0xfeff, 0xffa0, 0xfff9, 0xfffa,
  0xfffb,
]);
const BIDI = new Set([0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]);

function classOf(cp: number): HiddenClass | undefined {
  if (BIDI.has(cp)) return "bidi";
  if (INVISIBLE.has(cp)) return "invisible";
  if (cp >= 0xe0000 && cp <= 0xe007f) return "tag";
  // FE0E/FE0F choose text or emoji presentation and are everywhere in emoji; the rest are not.
  if ((cp >= 0xfe00 && cp <= 0xfe0d) || (cp >= 0xe0100 && cp <= 0xe01ef)) return "variation-selector";
  if ((cp < 0x20 && cp !== 0x09 && cp !== 0x0a && cp !== 0x0d) || (cp >= 0x7f && cp <= 0x9f)) return "control";
  if (cp >= 0x1d173 && cp <= 0x1d17a) return "invisible";
  return undefined;
}

/** Text with nothing hidden in it at a glance: printable ASCII, tabs and line breaks (most descriptions). */
const PRINTABLE = /^[\x20-\x7e\t\n\r]*$/u;

/** Every hidden character of `text` with its class; printable ASCII (most of any description) is skipped at once. */
function* hiddenOf(text: string): Generator<{ readonly cp: number; readonly cls: HiddenClass }> {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x20 && unit < 0x7f) continue;
    const cp = text.codePointAt(i)!;
    if (cp > 0xffff) i++;
    const cls = classOf(cp);
    if (cls !== undefined) yield { cp, cls };
  }
}

/** The hidden characters in `text`, one run per class (empty when there are none). */
export function hiddenCharacters(text: string): HiddenRun[] {
  if (PRINTABLE.test(text)) return [];
  const found = new Map<HiddenClass, { codePoints: Set<string>; count: number }>();
  for (const { cp, cls } of hiddenOf(text)) {
    const entry = found.get(cls) ?? { codePoints: new Set<string>(), count: 0 };
    entry.codePoints.add(`U+${cp.toString(16).toUpperCase().padStart(4, "0")}`);
    entry.count += 1;
    found.set(cls, entry);
  }
  return [...found].map(([cls, entry]) => ({ cls, codePoints: [...entry.codePoints], count: entry.count }));
}

/** The ASCII a run of Unicode tag characters spells (U+E0020..U+E007E), or "" when there is none. */
export function decodeTagText(text: string): string {
  // Tag characters are astral: text without the block's high surrogate (most text) has none.
  if (!text.includes("\uDB40")) return "";
  let out = "";
  for (const char of text) {
    const cp = char.codePointAt(0)!;
    if (cp >= 0xe0020 && cp <= 0xe007e) out += String.fromCharCode(cp - 0xe0000);
  }
  return out;
}

const CLASS_WORDS: Readonly<Record<HiddenClass, string>> = {
  invisible: "zero-width or invisible",
  bidi: "bidirectional control",
  tag: "Unicode tag",
  "variation-selector": "variation selector",
  control: "control",
};

/** `3 zero-width or invisible characters (U+200B, U+2060)` */
export function describeHidden(run: HiddenRun): string {
  const shown = run.codePoints.slice(0, 6).join(", ") + (run.codePoints.length > 6 ? ", ..." : "");
  return `${run.count} ${CLASS_WORDS[run.cls]} character${run.count === 1 ? "" : "s"} (${shown})`;
}

/** `text` with every hidden character removed, for the phrase checks (which hidden characters must not defeat). */
export function withoutHidden(text: string): string {
  let out = "";
  let last = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x20 && unit < 0x7f) continue;
    const cp = text.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    if (classOf(cp) !== undefined) {
      out += text.slice(last, i);
      last = i + width;
    }
    i += width - 1;
  }
  return last === 0 ? text : out + text.slice(last);
}
