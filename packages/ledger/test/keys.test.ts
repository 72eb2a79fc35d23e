import { createHash } from "node:crypto";
import { isProtocolFault } from "@indus/contract";
import {
  BRIDGE_KEY_PREFIX,
  bridgeContentKey,
  bridgeUlidKey,
  canonicalJson,
  contentDigest,
  enrollmentKey,
} from "@indus/ledger";

const sha32 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex").slice(0, 32);

describe("contentDigest", () => {
  it("is the full sha256 of the canonical JSON, and the enrollment key is cut from it", () => {
    const value = { name: "srv__tool", schema: { b: 1, a: [2, 1] } };
    const full = createHash("sha256").update('{"name":"srv__tool","schema":{"a":[2,1],"b":1}}', "utf8").digest("hex");
    expect(contentDigest(value)).toBe(full);
    expect(bridgeContentKey("srv", "tool", value.schema)).toBe(`bk_${full.slice(0, 32)}`);
  });

  it("takes a 100,000-deep value without overflowing the stack", () => {
    let deep: unknown = "leaf";
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    expect(contentDigest(deep)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("bridgeContentKey", () => {
  it("is bk_ + 32 hex of sha256 over the key-sorted {name, schema}", () => {
    const schema = { type: "object", properties: { b: { type: "string" }, a: { type: "number" } } };
    const expected = `bk_${sha32('{"name":"srv__tool","schema":{"properties":{"a":{"type":"number"},"b":{"type":"string"}},"type":"object"}}')}`;
    expect(bridgeContentKey("srv", "tool", schema)).toBe(expected);
    expect(bridgeContentKey("srv", "tool", schema)).toMatch(/^bk_[0-9a-f]{32}$/);
  });

  it("ignores object key order at every level but keeps array order", () => {
    const a = { type: "object", properties: { x: { type: "string", enum: ["p", "q"] } }, required: ["x"] };
    const b = { required: ["x"], properties: { x: { enum: ["p", "q"], type: "string" } }, type: "object" };
    expect(bridgeContentKey("s", "t", a)).toBe(bridgeContentKey("s", "t", b));
    const c = { ...a, properties: { x: { type: "string", enum: ["q", "p"] } } };
    expect(bridgeContentKey("s", "t", c)).not.toBe(bridgeContentKey("s", "t", a));
  });

  it("treats a missing schema as null, distinct from an empty object", () => {
    expect(bridgeContentKey("s", "t")).toBe(`bk_${sha32('{"name":"s__t","schema":null}')}`);
    expect(bridgeContentKey("s", "t", undefined)).toBe(bridgeContentKey("s", "t", null));
    expect(bridgeContentKey("s", "t")).not.toBe(bridgeContentKey("s", "t", {}));
  });

  it("changes with the server, the tool or the schema", () => {
    const keys = new Set([
      bridgeContentKey("s", "t", { type: "object" }),
      bridgeContentKey("s2", "t", { type: "object" }),
      bridgeContentKey("s", "t2", { type: "object" }),
      bridgeContentKey("s", "t", { type: "string" }),
    ]);
    expect(keys.size).toBe(4);
  });

  it("enrollmentKey does not qualify a name twice", () => {
    const params = { type: "object" };
    expect(enrollmentKey("srv", { name: "srv__tool", parameters: params })).toBe(
      bridgeContentKey("srv", "tool", params),
    );
    expect(enrollmentKey("srv", { name: "tool", parameters: params })).toBe(bridgeContentKey("srv", "tool", params));
    // A name qualified with another server stays whole, under the enrolling server.
    expect(enrollmentKey("srv", { name: "other__tool" })).toBe(bridgeContentKey("srv", "other__tool"));
  });
});

describe("canonicalJson", () => {
  it("matches JSON.stringify on values whose keys are already sorted", () => {
    const value = { a: [1, "two", null, true, { b: 2.5, c: [] }], d: {}, e: '\u2028"quote"' };
    expect(canonicalJson(value)).toBe(JSON.stringify(value));
  });

  it("follows JSON.stringify for values JSON cannot hold", () => {
    const value = { a: undefined, f: () => 1, n: Number.NaN, arr: [undefined, Infinity], d: new Date(0) };
    expect(canonicalJson(value)).toBe('{"arr":[null,null],"d":"1970-01-01T00:00:00.000Z","n":null}');
    expect(canonicalJson(10n)).toBe("10");
  });

  it("survives a 100,000-deep schema", () => {
    let deep: unknown = { type: "string" };
    for (let i = 0; i < 100_000; i++) deep = { items: deep };
    const text = canonicalJson(deep);
    expect(text.startsWith('{"items":{"items":')).toBe(true);
    expect(bridgeContentKey("s", "t", deep)).toMatch(/^bk_[0-9a-f]{32}$/);
  }, 60_000);

  it("refuses a cycle with a protocol fault naming where it closes", () => {
    const node: Record<string, unknown> = { type: "object", properties: {} };
    (node.properties as Record<string, unknown>).self = node;
    let caught: unknown;
    try {
      bridgeContentKey("s", "t", node);
    } catch (err) {
      caught = err;
    }
    expect(isProtocolFault(caught)).toBe(true);
    expect((caught as Error).message).toContain("$.schema.properties.self");
  });

  it("allows the same object twice when it is not its own ancestor", () => {
    const shared = { type: "string" };
    expect(canonicalJson({ a: shared, b: [shared, shared] })).toBe(
      '{"a":{"type":"string"},"b":[{"type":"string"},{"type":"string"}]}',
    );
  });
});

describe("bridgeUlidKey", () => {
  it("is bk_ + a ULID, strictly increasing within the process", () => {
    const keys = Array.from({ length: 2000 }, () => bridgeUlidKey());
    for (const key of keys) expect(key).toMatch(/^bk_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(keys.every((k) => k.startsWith(BRIDGE_KEY_PREFIX))).toBe(true);
    for (let i = 1; i < keys.length; i++) expect((keys[i - 1] as string) < (keys[i] as string)).toBe(true);
  });
});
