/**
 * What a gateway republishes, from a real server: the conformance reference
 * fixture (a v2 `McpServer`) mounted over stdio with its own names. The
 * descriptor's `wire` is the tool as the server listed it (JSON Schema 2020-12
 * keywords the model's view drops), and a call's `wire` is the result as sent.
 */
import type { JsonObject } from "@indus/contract";
import { mountProtocolBridge, type MountedProtocolBridge } from "@indus/fleet";
import { fixture } from "@indus/testkit";

jest.setTimeout(60_000);

let mounted: MountedProtocolBridge;
beforeAll(async () => {
  mounted = await mountProtocolBridge({ servers: [fixture("ref", "conformance-reference.mjs")] }, { names: "as-is" });
});
afterAll(() => mounted.fleet.tearDown());

it("publishes the server's own names with each tool's wire form untouched", () => {
  const names = mounted.box.descriptors().map((d) => d.name);
  expect(names).toEqual(expect.arrayContaining(["test_simple_text", "json_schema_2020_12_tool"]));
  const tool = mounted.box.descriptors().find((d) => d.name === "json_schema_2020_12_tool")!;
  const inputSchema = tool.wire?.["inputSchema"] as JsonObject;
  expect(inputSchema["$schema"]).toBe("https://json-schema.org/draft/2020-12/schema");
  expect(inputSchema).toHaveProperty("$defs");
  // The model's view is normalized: the 2020-12 keywords are gone from it.
  expect(tool.parameters).not.toHaveProperty("$schema");
});

it("returns a call's result as the server sent it, every content block included", async () => {
  const outcome = await mounted.box.runner.run({ id: "1", name: "test_multiple_content_types", input: {} });
  expect(outcome.isError).toBe(false);
  const blocks = (outcome.wire?.["content"] ?? []) as JsonObject[];
  expect(blocks.map((block) => block["type"])).toEqual(["text", "image", "resource"]);
  expect(blocks[1]).toMatchObject({ mimeType: "image/png" });
});
