// A ToolBox that forwards every call to one upstream MCP server through a bare
// v2 SDK Client on the raw request path with an unchecked result (as @indus/endpoint calls tools): the
// smallest honest stand-in for a mounted fleet (the bench may not depend on
// @indus/fleet). Content blocks other than text ride as JSON.
import { Client } from "@modelcontextprotocol/client";

/** Results pass through unchecked, as @indus/endpoint takes them (a bridge must not reject a result the model can still read). */
const ANY_RESULT = { "~standard": { version: 1, vendor: "bench", validate: (value) => ({ value }) } };

/** @param {import("@modelcontextprotocol/client").Transport} transport */
export async function createForwardingBox(transport) {
  const client = new Client({ name: "bench-forwarder", version: "1.0.0" });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const descriptors = tools.map((tool) => ({
    name: tool.name,
    description: tool.description ?? "",
    parameters: tool.inputSchema,
    ...(tool.annotations ? { annotations: tool.annotations } : {}),
  }));
  /** @type {import("@indus/contract").ToolBox} */
  const box = {
    descriptors: () => descriptors,
    runner: {
      async run(call, options = {}) {
        try {
          const result = await client.request(
            { method: "tools/call", params: { name: call.name, arguments: call.input ?? {} } },
            ANY_RESULT,
            {
              signal: options.signal,
              onprogress: options.onProgress
                ? (progress) =>
                    options.onProgress({
                      progress: progress.progress,
                      total: progress.total,
                      message: progress.message,
                    })
                : undefined,
            },
          );
          return {
            callId: call.id,
            isError: result.isError === true,
            content: (result.content ?? []).map((block) =>
              block.type === "text" ? { type: "text", text: block.text } : { type: "json", value: block },
            ),
            ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}),
          };
        } catch (error) {
          return { callId: call.id, isError: true, content: [{ type: "text", text: String(error?.message ?? error) }] };
        }
      },
    },
  };
  return { box, close: () => client.close() };
}
