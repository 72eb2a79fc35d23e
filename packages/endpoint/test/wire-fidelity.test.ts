/**
 * What a gateway republishes must be what the server sent: every listed tool
 * keeps its MCP `Tool` as `descriptor.wire` (2020-12 schemas, output schema,
 * annotations, title, icons, `_meta`) beside the model's normalized
 * `parameters`, and every call result keeps its whole `CallToolResult` as
 * `wire`. Both eras, over stdio and Streamable HTTP, against a v2-SDK server.
 */
import { relayData } from "@indus/testkit";
import { relayHarness, type RelaySetup } from "./helpers/relay-harness";

const data = relayData();
const harness = relayHarness();

/** All four here: listing and results need no server requests, so legacy over HTTP counts too. */
const setups: RelaySetup[] = [
  ["stdio", "legacy"],
  ["stdio", "2026-07-28"],
  ["streamable-http", "legacy"],
  ["streamable-http", "2026-07-28"],
];

async function connect(setup: RelaySetup) {
  const endpoint = await harness.connect(setup);
  expect(endpoint.era).toBe(setup[1]);
  return endpoint;
}

describe.each(setups)("over %s in the %s era", (transport, protocol) => {
  it("keeps every tool exactly as listed, next to the model's normalized parameters", async () => {
    const endpoint = await connect([transport, protocol]);
    const tools = await endpoint.listTools();
    expect(tools.map((tool) => tool.descriptor.wire)).toEqual(data.tools);
    const schemaTool = tools.find((tool) => tool.ref.name === "schema_2020")!;
    // The model's view is normalized: no $schema, $ref inlined.
    expect(JSON.stringify(schemaTool.descriptor.parameters)).not.toContain("$ref");
    expect(schemaTool.descriptor.parameters).not.toHaveProperty("$schema");
  });

  it("returns the whole CallToolResult as sent (_meta, structuredContent, every block)", async () => {
    const endpoint = await connect([transport, protocol]);
    const result = await endpoint.invoke("rich", {});
    expect(result.wire).toEqual(data.richResult);
    expect(result.content).toEqual(data.richResult["content"]);
    expect(result.structuredContent).toEqual(data.richResult["structuredContent"]);
  });

  it("passes structuredContent on even when it does not match the tool's outputSchema", async () => {
    const endpoint = await connect([transport, protocol]);
    await endpoint.listTools();
    // `schema_2020` declares { ok: boolean } and answers { ok: "not a boolean" }: not ours to judge.
    await expect(endpoint.invoke("schema_2020", {})).resolves.toMatchObject({
      structuredContent: { ok: "not a boolean" },
    });
  });

  it("fails a call the server answers with a JSON-RPC error with that code and data as fields", async () => {
    const endpoint = await connect([transport, protocol]);
    await expect(endpoint.invoke("fail", {})).rejects.toMatchObject({
      name: "ProtocolFault",
      kind: "tool-error",
      server: "relay",
      rpcCode: -32050,
      data: { why: "asked to" },
    });
  });
});
