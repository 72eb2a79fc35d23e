import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { TOOL_NAME_PATTERN, type RemoteTool } from "@indus/contract";
import { createServerEndpoint, type McpServerEndpoint } from "@indus/endpoint";
import { scripted } from "./helpers/servers";

let endpoint: McpServerEndpoint;
let tools: readonly RemoteTool[];

beforeAll(async () => {
  // page=3 forces several tools/list pages.
  endpoint = createServerEndpoint(scripted("fx", ["page=3"]));
  await endpoint.open();
  tools = await endpoint.listTools();
});
afterAll(() => endpoint.close());

const byRef = (name: string) => tools.find((tool) => tool.ref.name === name);

it("follows every page and keeps every tool with a name", () => {
  const names = tools.map((tool) => tool.ref.name);
  expect(names).toEqual(
    expect.arrayContaining([
      "echo",
      "slow",
      "big",
      "bad_output",
      "broken_output_schema",
      "string_input",
      "grow",
      "whoami",
    ]),
  );
  expect(names).toHaveLength(19);
  expect(endpoint.listIssues).toEqual(["a tool has no name"]);
  expect(endpoint.status().toolCount).toBe(19);
});

it("stamps <server>__<tool> on descriptors, legal for every provider, and keeps the server-side name on the ref", () => {
  expect(byRef("echo")!.descriptor.name).toBe("fx__echo");
  expect(byRef("echo")!.ref).toEqual({ server: "fx", name: "echo" });
  for (const tool of tools) expect(tool.descriptor.name).toMatch(TOOL_NAME_PATTERN);
  expect(new Set(tools.map((tool) => tool.descriptor.name)).size).toBe(tools.length);
  // dotted.name sanitizes onto its legal twin; the twin keeps the plain name.
  expect(byRef("dotted_name")!.descriptor.name).toBe("fx__dotted_name");
  expect(byRef("dotted.name")!.descriptor.name).toMatch(/^fx__dotted_name_[0-9a-f]{8}$/);
  const long = tools.find((tool) => tool.ref.name.startsWith("long_"))!;
  expect(long.descriptor.name).toHaveLength(64);
});

it("normalizes input schemas and carries annotations", () => {
  expect(byRef("echo")!.descriptor.parameters).toMatchObject({
    type: "object",
    properties: { message: { type: "string" } },
  });
  expect(byRef("string_input")!.descriptor.parameters).toMatchObject({ type: "object" });
  expect(byRef("echo")!.descriptor.annotations).toEqual({ readOnlyHint: true });
  expect(byRef("echo")!.descriptor.description).toBe("Echoes back the message");
});

it("works where the v2 SDK's Client.listTools() throws the whole list away", async () => {
  const client = new Client({ name: "plain", version: "0" });
  const transport = new StdioClientTransport({
    ...(scripted("sdk", ["page=100"]) as { command: string; args: string[] }),
    stderr: "pipe",
  });
  (transport.stderr as NodeJS.ReadableStream | null)?.resume();
  await client.connect(transport);
  try {
    await expect(client.listTools()).rejects.toThrow();
  } finally {
    await client.close();
  }
});

it("calls tools by their server-side names, whatever their model-facing name", async () => {
  const echo = await endpoint.invoke("echo", { message: "hi" });
  expect(echo).toMatchObject({ content: [{ type: "text", text: "Echo from fx: hi" }], isError: false });
  await expect(endpoint.invoke("dotted.name", {})).resolves.toMatchObject({ isError: true });
});

it("passes a result that violates its outputSchema through as sent", async () => {
  await expect(endpoint.invoke("bad_output", {})).resolves.toMatchObject({
    content: [{ type: "text", text: "n is not a number" }],
    structuredContent: { n: "not a number" },
    isError: false,
  });
});

it("returns isError results as results and JSON-RPC errors as tool-error faults", async () => {
  await expect(endpoint.invoke("error_result", {})).resolves.toMatchObject({ isError: true });
  await expect(endpoint.invoke("throws", {})).rejects.toMatchObject({ kind: "tool-error" });
  expect(endpoint.phase).toBe("ready");
});

it("passes every content block through untouched", async () => {
  const result = await endpoint.invoke("rich", {});
  expect(result.content.map((block) => (block as { type: string }).type)).toEqual([
    "text",
    "image",
    "audio",
    "resource",
    "resource_link",
  ]);
  expect(result.content[1]).toEqual({ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" });
  expect(result.structuredContent).toEqual({ ok: true });
});

it("answers concurrent calls independently", async () => {
  const results = await Promise.all(
    Array.from({ length: 50 }, (_, i) => endpoint.invoke("echo", { message: String(i) })),
  );
  results.forEach((result, i) => expect(result.content[0]).toEqual({ type: "text", text: `Echo from fx: ${i}` }));
});

it("reports not-connected for listing before open", async () => {
  const idle = createServerEndpoint(scripted("idle2"));
  await expect(idle.listTools()).rejects.toMatchObject({ kind: "not-connected" });
  await idle.close();
});
