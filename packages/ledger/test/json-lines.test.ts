import {
  BridgeLedger,
  asBridgeKey,
  parseLog,
  serializeLog,
  toJsonLine,
  type CapabilityDescriptor,
  type LedgerCapability,
} from "@indus/ledger";

/** A capability that is not descriptor-like on its own: it carries a runner. */
interface Runnable extends LedgerCapability {
  readonly name: string;
  readonly description: string;
  readonly parameters: Record<string, unknown>;
  readonly run: () => string;
}

const AT = "2026-01-02T03:04:05.000Z";
const runnable = (server: string, tool: string): Runnable => ({
  name: `${server}__${tool}`,
  description: `${tool} on ${server}`,
  parameters: { type: "object", properties: { q: { type: "string" } } },
  run: () => `${server}:${tool}`,
});
const registry = new Map<string, Runnable>();
const resolve = (d: CapabilityDescriptor): Runnable => {
  const found = registry.get(d.name);
  if (!found) throw new Error(`no live tool named ${d.name}`);
  return found;
};

function sample(): BridgeLedger<Runnable> {
  let l = BridgeLedger.empty<Runnable>();
  for (const [s, t] of [
    ["a", "one"],
    ["b", "two"],
    ["a", "three"],
  ] as const) {
    const cap = runnable(s, t);
    registry.set(cap.name, cap);
    l = l.enroll({ capability: cap, server: s }, AT);
  }
  return l.retire(asBridgeKey("bk_unknown"), "z", AT).withdrawServer("b", AT);
}

describe("serializeLog", () => {
  it("writes one entry per line, capabilities as descriptors", () => {
    const l = sample();
    const text = serializeLog(l.log);
    const lines = text.split("\n");
    expect(lines.at(-1)).toBe(""); // every line ends in a newline
    expect(lines).toHaveLength(l.log.length + 1);
    expect(JSON.parse(lines[0] as string)).toEqual({
      seq: 1,
      op: "enroll",
      key: l.log[0]?.key,
      server: "a",
      at: AT,
      capability: {
        name: "a__one",
        description: "one on a",
        parameters: { type: "object", properties: { q: { type: "string" } } },
      },
    });
    expect(JSON.parse(lines[3] as string)).toEqual({ seq: 4, op: "retire", key: "bk_unknown", server: "z", at: AT });
    expect(l.toJsonLines()).toBe(text);
    expect(toJsonLine(l.log[0]!)).toBe(lines[0]);
  });

  it("uses a caller's describe, and extra descriptor fields come back to the resolver", () => {
    const l = sample();
    const text = l.toJsonLines((c) => ({ name: c.name, origin: "test" }));
    const seen: CapabilityDescriptor[] = [];
    const back = BridgeLedger.fromJsonLines(text, (d) => {
      seen.push(d);
      return resolve(d);
    });
    expect(back.error).toBeUndefined();
    expect(seen[0]).toEqual({ name: "a__one", origin: "test" });
  });
});

describe("fromJsonLines", () => {
  it("round-trips: same log, same live set, same next seq, resolved capabilities", () => {
    const l = sample();
    const back = BridgeLedger.fromJsonLines(l.toJsonLines(), resolve);
    expect(back.error).toBeUndefined();
    expect(back.entries).toHaveLength(l.log.length);
    expect(back.ledger.log).toEqual(l.log);
    expect([...back.ledger.snapshot.live.keys()]).toEqual([...l.snapshot.live.keys()]);
    expect(back.ledger.nextSeq).toBe(l.nextSeq);
    expect(back.ledger.liveCapabilities()[0]?.run()).toBe("a:one");
  });

  it("reads an empty text, blank lines and CRLF line ends", () => {
    expect(BridgeLedger.fromJsonLines("", resolve).ledger.nextSeq).toBe(1);
    const l = sample();
    const crlf = `\n${l.toJsonLines().split("\n").join("\r\n\r\n")}`;
    const back = BridgeLedger.fromJsonLines(crlf, resolve);
    expect(back.error).toBeUndefined();
    expect(back.ledger.log).toEqual(l.log);
  });

  it("keeps the good prefix of a torn write and names the torn line", () => {
    const l = sample();
    const text = l.toJsonLines();
    const torn = text.slice(0, text.length - 15);
    const back = BridgeLedger.fromJsonLines(torn, resolve);
    expect(back.error).toMatchObject({ kind: "truncated", line: l.log.length });
    expect(back.error?.message).toMatch(new RegExp(`^line ${l.log.length}: truncated entry`));
    expect(back.entries).toHaveLength(l.log.length - 1);
    expect(back.ledger.log).toEqual(l.log.slice(0, -1));
    expect(back.ledger.nextSeq).toBe(l.log.length);
  });

  it("a last line complete but without its newline is fine", () => {
    const l = sample();
    const back = BridgeLedger.fromJsonLines(l.toJsonLines().trimEnd(), resolve);
    expect(back.error).toBeUndefined();
    expect(back.entries).toHaveLength(l.log.length);
  });

  const corrupt = (lineNo: number, replacement: string) => {
    const lines = sample().toJsonLines().split("\n");
    lines[lineNo - 1] = replacement;
    return lines.join("\n");
  };

  it.each([
    ["garbage", "{not json", "invalid-json", /^line 2: not valid JSON \(.+\): \{not json$/],
    ["an array", "[1,2]", "invalid-entry", /^line 2: expected an entry object, got an array$/],
    [
      "a bad seq",
      '{"seq":"2","op":"retire","key":"bk_x","server":"s","at":"t"}',
      "invalid-entry",
      /^line 2: "seq" must be a positive integer, got "2"$/,
    ],
    [
      "a bad op",
      '{"seq":2,"op":"delete","key":"bk_x","server":"s","at":"t"}',
      "invalid-entry",
      /^line 2: "op" must be "enroll" or "retire", got "delete"$/,
    ],
    [
      "no key",
      '{"seq":2,"op":"retire","server":"s","at":"t"}',
      "invalid-entry",
      /^line 2: "key" must be a non-empty string, got nothing$/,
    ],
    ["no at", '{"seq":2,"op":"retire","key":"bk_x","server":"s"}', "invalid-entry", /^line 2: "at" must be a string/],
    [
      "an enroll without capability",
      '{"seq":2,"op":"enroll","key":"bk_x","server":"s","at":"t"}',
      "invalid-entry",
      /^line 2: an enroll entry needs a "capability" object, got nothing$/,
    ],
    [
      "a nameless capability",
      '{"seq":2,"op":"enroll","key":"bk_x","server":"s","at":"t","capability":{"name":3}}',
      "invalid-entry",
      /^line 2: "capability.name" must be a string, got 3$/,
    ],
    [
      "a retire with a capability",
      '{"seq":2,"op":"retire","key":"bk_x","server":"s","at":"t","capability":{"name":"x"}}',
      "invalid-entry",
      /^line 2: a retire entry carries no "capability"$/,
    ],
    [
      "a repeated seq",
      '{"seq":1,"op":"retire","key":"bk_x","server":"s","at":"t"}',
      "out-of-order",
      /^line 2: seq 1 does not come after seq 1 on the line before$/,
    ],
    [
      "an unknown tool",
      '{"seq":2,"op":"enroll","key":"bk_x","server":"s","at":"t","capability":{"name":"s__gone"}}',
      "unresolved",
      /^line 2: the resolver refused capability "s__gone": no live tool named s__gone$/,
    ],
  ])("stops at %s on line 2, keeping line 1", (_label, line, kind, message) => {
    const back = BridgeLedger.fromJsonLines(corrupt(2, line), resolve);
    expect(back.error?.kind).toBe(kind);
    expect(back.error?.line).toBe(2);
    expect(back.error?.message).toMatch(message);
    expect(back.entries).toHaveLength(1);
    expect(back.ledger.log).toHaveLength(1);
    expect(back.ledger.nextSeq).toBe(2);
  });

  it("counts blank lines when naming the bad line", () => {
    const l = sample();
    const text = `${l.log
      .slice(0, 2)
      .map((e) => toJsonLine(e))
      .join("\n\n")}\n\noops\n`;
    const back = parseLog(text, resolve);
    expect(back.error).toMatchObject({ kind: "invalid-json", line: 5 });
    expect(back.entries).toHaveLength(2);
  });

  it("shortens a long bad line in the message", () => {
    const back = parseLog(`${"x".repeat(10_000)}\n`, resolve);
    expect(back.error?.message.length).toBeLessThan(250);
  });
});
