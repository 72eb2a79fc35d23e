import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { createServerEndpoint } from "@indus/endpoint";

it("runs over an injected transport, bypassing the config's", async () => {
  const server = new McpServer({ name: "in-process", version: "0.0.1" }, { instructions: "in-process instructions" });
  server.registerTool("add", { description: "Adds", inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({
    content: [{ type: "text", text: String(a + b) }],
  }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);

  // The config's command is never run: the injected transport wins.
  const endpoint = createServerEndpoint(
    { transport: "stdio", id: "mem", command: "/not/run", args: [], env: {} },
    clientSide,
  );
  await endpoint.open();
  expect(endpoint.transportKind).toBe("stdio");
  expect(endpoint.pid).toBeUndefined();
  expect(endpoint.instructions).toBe("in-process instructions");
  const tools = await endpoint.listTools();
  expect(tools.map((tool) => tool.descriptor.name)).toEqual(["mem__add"]);
  expect(tools[0]!.descriptor.parameters).toMatchObject({
    type: "object",
    properties: { a: { type: "number" }, b: { type: "number" } },
    required: ["a", "b"],
  });
  await expect(endpoint.invoke("add", { a: 2, b: 3 })).resolves.toMatchObject({
    content: [{ type: "text", text: "5" }],
    isError: false,
  });
  await endpoint.close();
  expect(endpoint.phase).toBe("closed");
  await server.close();
});
