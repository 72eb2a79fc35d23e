import { formatJsonPath, sameJson, tooDeepAt } from "@indus/contract";

/** `{"a":{"a":...}}` nested `n` levels, parsed from text as a peer's would be. */
const nested = (n: number): unknown => JSON.parse(`${'{"a":'.repeat(n)}{}${"}".repeat(n)}`);

it("finds the first value nested past the limit, at any depth, without overflowing the stack", () => {
  expect(tooDeepAt({ a: [{ b: 1 }] }, 3)).toBeUndefined();
  expect(tooDeepAt({ a: [{ b: {} }] }, 2)).toEqual(["a", 0, "b"]);
  const deep = { ok: true, tools: [{ name: "x" }, { name: "deep", inputSchema: nested(100_000) }] };
  const at = tooDeepAt(deep, 64)!;
  expect(at.slice(0, 4)).toEqual(["tools", 1, "inputSchema", "a"]);
  expect(at).toHaveLength(65);
  expect(formatJsonPath(at)).toBe("tools[1].inputSchema.a.a.a…");
});

it("compares JSON values structurally without recursion", () => {
  expect(sameJson({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true);
  expect(sameJson({ a: 1 }, { a: 1, b: undefined })).toBe(false);
  expect(sameJson([1, 2], { 0: 1, 1: 2 })).toBe(false);
  expect(sameJson(nested(100_000), nested(100_000))).toBe(true);
  const shared = nested(50_000);
  expect(sameJson({ x: shared, y: 1 }, { x: shared, y: 2 })).toBe(false);
});
