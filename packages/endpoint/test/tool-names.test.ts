import { TOOL_NAME_PATTERN } from "@indus/contract";
import { assignToolNames, sanitizeToolName, shortHash } from "@indus/endpoint";

it("replaces characters providers reject with _", () => {
  expect(sanitizeToolName("fs__read.file")).toBe("fs__read_file");
  expect(sanitizeToolName("srv__héllo wörld/x")).toBe("srv__h_llo_w_rld_x");
  expect(sanitizeToolName("srv__ok-name_1")).toBe("srv__ok-name_1");
});

it("cuts names over 64 characters and appends a stable hash of the original", () => {
  const long = `srv__${"a".repeat(100)}`;
  const name = sanitizeToolName(long);
  expect(name).toHaveLength(64);
  expect(name).toMatch(TOOL_NAME_PATTERN);
  expect(name.endsWith(`_${shortHash(long)}`)).toBe(true);
  expect(sanitizeToolName(long)).toBe(name);
  expect(sanitizeToolName(`${long}b`)).not.toBe(name);
});

it("keeps tools that sanitize to one name apart, independent of order", () => {
  const originals = ["s__a.b", "s__a_b", "s__a b", "s__a:b"];
  const forward = assignToolNames(originals);
  const backward = assignToolNames([...originals].reverse());
  expect(forward).toEqual(backward);
  expect(forward.get("s__a_b")).toBe("s__a_b");
  const names = [...forward.values()];
  expect(new Set(names).size).toBe(4);
  for (const name of names) expect(name).toMatch(TOOL_NAME_PATTERN);
});

it("without a legal original, the lexically smallest keeps the plain name", () => {
  const assigned = assignToolNames(["s__b.x", "s__a.x".replace("a", "b").replace(".", ":")]);
  expect(assigned.get("s__b.x")).toBe("s__b_x");
  expect(assigned.get("s__b:x")).toMatch(/^s__b_x_[0-9a-f]{8}$/);
});
