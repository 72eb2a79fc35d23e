import { LineSplitter, type Line } from "../src/stdio/line-splitter";
import { LONG_STRING_BYTES } from "../src/stdio/long-line";

/** A small deterministic generator, so a failing cut can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** The lines `splitter` makes of `text`, fed in chunks whose sizes come from `size`. */
function feed(text: string, size: () => number, splitter = new LineSplitter(2 ** 30, 1024)): Line[] {
  const bytes = Buffer.from(`${text}\n`);
  const lines: Line[] = [];
  for (let at = 0; at < bytes.length;) {
    const next = Math.min(bytes.length, at + size());
    splitter.push(bytes.subarray(at, next), (line) => lines.push(line));
    at = next;
  }
  return lines;
}

const parsed = (lines: Line[]): unknown => {
  expect(lines).toHaveLength(1);
  expect(lines[0]!.kind).toBe("value");
  return (lines[0] as { value: unknown }).value;
};

// Every escape JSON has, raw multi-byte characters, and a surrogate pair
// written as two escapes, repeated past the long-string threshold.
const UNIT = String.raw`ab\"c\\d\/e\b\f\n\r\t\u0041\u00e9\ud83d\ude00é😀\\\\x`;
const LONG = UNIT.repeat(Math.ceil((LONG_STRING_BYTES * 2.5) / UNIT.length));
const LINE =
  `{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"${LONG}"},` +
  `{"type":"text","text":"short \\"one\\" é"}],"${UNIT.repeat(Math.ceil(LONG_STRING_BYTES / UNIT.length) + 1)}":[1,2.5,null,true],` +
  `"structuredContent":{"items":["z${LONG}",{"deep":"${LONG}"}]}}}`;

it("parses a long line in chunks exactly as JSON.parse does, however the chunks fall", () => {
  const expected: unknown = JSON.parse(LINE);
  const sizes = [() => 65_536, () => 3, () => 7, () => 200_000];
  for (const size of sizes) expect(parsed(feed(LINE, size))).toEqual(expected);
  for (let seed = 1; seed <= 12; seed++) {
    const next = random(seed);
    const size = () => 1 + Math.floor(next() * (next() < 0.5 ? 12 : 90_000));
    expect(parsed(feed(LINE, size))).toEqual(expected);
  }
});

it("parses a long line of many short strings, and a long string alone", () => {
  const many = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    result: { tools: Array.from({ length: 20_000 }, (_, i) => ({ name: `t${i}`, d: 'é"\\' })) },
  });
  expect(parsed(feed(many, () => 65_536))).toEqual(JSON.parse(many));
  expect(parsed(feed(`"${LONG}"`, () => 4096))).toEqual(JSON.parse(`"${LONG}"`));
});

it("keeps a string that looks like a marker as the server sent it", () => {
  const line = JSON.stringify({ a: "x".repeat(LONG_STRING_BYTES + 1), b: "indus-long-00-0", c: "indus-long-" });
  expect(parsed(feed(line, () => 65_536))).toEqual(JSON.parse(line));
});

it("reports a long line that is not JSON by its head, and reads the next line", () => {
  const long = "x".repeat(LONG_STRING_BYTES * 2);
  const broken = [
    `{"text":"${long}`, // never closed
    `{"text":"${long}\t"}`, // a raw control character
    `{"text":"${long}\\q"}`, // an escape JSON does not have
    `{"text":"${long}\\u12"}`, // an unfinished escape
    `{"text":"${long}"`, // an unclosed object
  ];
  for (const line of broken) {
    const lines = feed(`${line}\n{"ok":1}`, () => 65_536);
    expect(lines.map((l) => l.kind)).toEqual(["garbage", "text"]);
    expect((lines[0] as { head: string }).head.startsWith('{"text":"xxx')).toBe(true);
  }
});
