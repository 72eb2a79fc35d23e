/** Which `x-mcp-header` declarations count (SEP-2243): one reading for the endpoint and the gateway. */
import { invalidParamHeaders, isRecord, paramHeaderArgument, paramHeaderDeclarations } from "@indus/contract";

it("counts primitive properties reached through properties chains, with a token name", () => {
  const schema = {
    type: "object",
    properties: {
      region: { type: "string", "x-mcp-header": "Region" },
      level: { type: "integer", "x-mcp-header": "Level" },
      nested: { type: "object", properties: { on: { type: "boolean", "x-mcp-header": "On" } } },
      list: { type: "array", "x-mcp-header": "List" },
      spaced: { type: "string", "x-mcp-header": "Not a token" },
      plain: { type: "string" },
    },
  };
  expect(paramHeaderDeclarations(schema)).toEqual([
    { path: ["region"], header: "Region", type: "string" },
    { path: ["level"], header: "Level", type: "integer" },
    { path: ["nested", "on"], header: "On", type: "boolean" },
  ]);
  expect(paramHeaderDeclarations({ type: "object", "x-mcp-header": "Root" })).toEqual([]);
  expect(paramHeaderDeclarations(undefined)).toEqual([]);
});

it("says why a tool's declarations are invalid, the way a client must exclude it", () => {
  const on = (property: Record<string, unknown>) => ({ type: "object", properties: { a: property } });
  expect(invalidParamHeaders(on({ type: "string", "x-mcp-header": "A" }))).toBeUndefined();
  expect(invalidParamHeaders({ type: "object", "x-mcp-header": "Root" })).toBe("x-mcp-header on the root schema");
  expect(invalidParamHeaders(on({ type: "string", "x-mcp-header": "A B" }))).toBe(
    "a: x-mcp-header is not a header token",
  );
  expect(invalidParamHeaders(on({ type: "object", "x-mcp-header": "A" }))).toBe(
    "a: x-mcp-header on a non-primitive property",
  );
  const twice = {
    type: "object",
    properties: { a: { type: "string", "x-mcp-header": "Same" }, b: { type: "integer", "x-mcp-header": "same" } },
  };
  expect(invalidParamHeaders(twice)).toBe('b: x-mcp-header "same" is declared twice');
  expect(invalidParamHeaders(undefined)).toBeUndefined();
});

it("finds the argument a declaration names, and nothing through a non-object", () => {
  expect(paramHeaderArgument({ nested: { on: true } }, ["nested", "on"])).toBe(true);
  expect(paramHeaderArgument({ nested: [true] }, ["nested", "0"])).toBeUndefined();
  expect(paramHeaderArgument(undefined, ["a"])).toBeUndefined();
});

it("tells JSON objects from null, arrays and primitives", () => {
  expect([{}, { a: 1 }, null, [], "x", 1, undefined].map(isRecord)).toEqual([
    true,
    true,
    false,
    false,
    false,
    false,
    false,
  ]);
});
