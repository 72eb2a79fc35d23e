/** Which `x-mcp-header` declarations count (SEP-2243): one reading for the endpoint and the gateway. */
import { paramHeaderDeclarations } from "@indus/contract";

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
