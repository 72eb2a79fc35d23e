// Mirrors the README's example: a one-tool box served over HTTP and called by
// the v2 SDK client (the stdio half is exercised by test/stdio.test.ts).
import type { ToolBox } from "@indus/contract";
import { serveHttp } from "@indus/provider-host";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

const box: ToolBox = {
  descriptors: () => [
    {
      name: "greet",
      description: "Greets someone by name.",
      parameters: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
      annotations: { readOnlyHint: true },
    },
  ],
  runner: {
    async run(call) {
      const { name } = call.input as { name: string };
      return { callId: call.id, isError: false, content: [{ type: "text", text: `Hello, ${name}!` }] };
    },
  },
};

it("serves the README's box", async () => {
  const host = await serveHttp(box, { port: 0 });
  const client = new Client({ name: "readme", version: "1.0.0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(host.url));
    expect((await client.listTools()).tools[0]?.annotations).toEqual({ readOnlyHint: true });
    expect(await client.callTool({ name: "greet", arguments: { name: "Ada" } })).toEqual({
      content: [{ type: "text", text: "Hello, Ada!" }],
      isError: false,
    });
    const invalid = await client.callTool({ name: "greet", arguments: {} });
    expect(invalid.isError).toBe(true);
  } finally {
    await client.close();
    await host.close();
  }
});
