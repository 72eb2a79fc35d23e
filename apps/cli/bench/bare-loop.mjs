// The baseline for bench/agent-turn.mjs: the least a client can do per
// tool-call turn. It streams a chat completion with fetch, reads the SSE tool
// call, calls the MCP tool through @indus/endpoint (what the agent uses too),
// appends the result and asks again, until the model answers.
// Usage: node bare-loop.mjs <baseUrl> <server entry>
import { McpServerEndpoint } from "@indus/endpoint";

const [baseUrl, entry] = process.argv.slice(2);
const endpoint = new McpServerEndpoint({
  transport: "stdio",
  id: "everything",
  command: process.execPath,
  args: [entry, "stdio"],
  env: {},
});
await endpoint.open();
const tools = (await endpoint.listTools()).filter((t) => t.ref.name === "echo");
const declared = tools.map((t) => ({
  type: "function",
  function: { name: t.descriptor.name, description: t.descriptor.description, parameters: t.descriptor.parameters },
}));
const messages = [{ role: "user", content: "go" }];
for (;;) {
  const response = await fetch(`${baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "m", stream: true, messages, tools: declared }),
  });
  const text = await response.text();
  let call;
  for (const line of text.split("\n")) {
    if (!line.startsWith("data: {")) continue;
    const delta = JSON.parse(line.slice(6)).choices[0].delta;
    if (delta.tool_calls) call = delta.tool_calls[0];
  }
  if (!call) break;
  messages.push({ role: "assistant", content: null, tool_calls: [call] });
  const result = await endpoint.invoke(call.function.name.split("__")[1], JSON.parse(call.function.arguments));
  messages.push({ role: "tool", tool_call_id: call.id, content: result.content.map((b) => b.text ?? "").join("\n") });
}
// A ref'd timer keeps the loop alive while close settles (its own timers are unref'd).
await Promise.race([endpoint.close(), new Promise((resolve) => setTimeout(resolve, 3000))]);
process.exit(0);
