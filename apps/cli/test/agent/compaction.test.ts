import { APICallError, type ModelMessage } from "ai";
import { isContextOverflow, keepFrom } from "../../src/agent/session/compaction";

const apiError = (statusCode: number, responseBody: string) =>
  new APICallError({ message: "Bad Request", url: "http://x", requestBodyValues: {}, statusCode, responseBody });

it("recognises the providers' context-length refusals, and nothing else", () => {
  expect(isContextOverflow(apiError(400, '{"error":{"code":"context_length_exceeded"}}'))).toBe(true);
  expect(
    isContextOverflow(apiError(400, '{"type":"error","error":{"message":"prompt is too long: 210000 tokens"}}')),
  ).toBe(true);
  expect(isContextOverflow(apiError(429, "maximum context length"))).toBe(false);
  expect(isContextOverflow(apiError(400, '{"error":{"message":"bad tool schema"}}'))).toBe(false);
  expect(isContextOverflow(new Error("context_length_exceeded"))).toBe(false);
});

it("keeps the newest prompt and what followed; a tool message never opens the kept part", () => {
  const big = "x".repeat(4_000);
  const messages: ModelMessage[] = [
    { role: "user", content: "one" },
    { role: "assistant", content: "ok" },
    { role: "user", content: "two" },
    { role: "assistant", content: [{ type: "tool-call", toolCallId: "a", toolName: "read", input: {} }] },
    {
      role: "tool",
      content: [{ type: "tool-result", toolCallId: "a", toolName: "read", output: { type: "text", value: big } }],
    },
    { role: "assistant", content: "done" },
  ];
  expect(keepFrom(messages, 10_000)).toBe(2);
  // Too big to keep from the prompt: the next assistant message after the big result.
  expect(keepFrom(messages, 100)).toBe(5);
});
