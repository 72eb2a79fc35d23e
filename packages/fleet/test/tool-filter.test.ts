import { projectBlock, toolFilter } from "@indus/fleet";

it("includes everything without includeTools", () => {
  expect(toolFilter({})("anything")).toBe(true);
});

it("matches server-side names against globs, exclude winning over include", () => {
  const keep = toolFilter({ includeTools: ["read_*", "list_*"], excludeTools: ["*_secret"] });
  expect(keep("read_file")).toBe(true);
  expect(keep("list_dir")).toBe(true);
  expect(keep("write_file")).toBe(false);
  expect(keep("read_secret")).toBe(false);
  expect(toolFilter({ includeTools: [] })("read_file")).toBe(false);
  expect(toolFilter({ excludeTools: ["*"] })("x")).toBe(false);
  expect(toolFilter({ includeTools: ["a.b"] })("a.b")).toBe(true);
});

it("projects text blocks as text and everything else, malformed included, as JSON", () => {
  expect(projectBlock({ type: "text", text: "hi" })).toEqual({ type: "text", text: "hi" });
  expect(projectBlock({ type: "text", text: 3 })).toEqual({ type: "json", value: { type: "text", text: 3 } });
  expect(projectBlock("loose string")).toEqual({ type: "json", value: "loose string" });
  expect(projectBlock(null)).toEqual({ type: "json", value: null });
});
