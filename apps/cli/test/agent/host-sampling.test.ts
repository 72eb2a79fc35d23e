/**
 * A server's `sampling/createMessage` params as the session's model gets
 * them, what is refused, and how the request reads on the terminal.
 */
import { describeSampling, samplingRequest } from "../../src/agent/host/sampling";

test("messages, system prompt, limits and stop sequences map onto one model request", () => {
  const request = samplingRequest({
    messages: [
      { role: "user", content: { type: "text", text: "What is in this picture?" } },
      { role: "assistant", content: [{ type: "text", text: "A cat." }] },
      {
        role: "user",
        content: [
          { type: "image", data: "aGVsbG8=", mimeType: "image/png" },
          { type: "audio", data: "AAAA", mimeType: "audio/wav" },
        ],
      },
    ],
    systemPrompt: "Be brief.",
    maxTokens: 64.7,
    temperature: 0.2,
    stopSequences: ["END", 3],
  });
  expect(request).toEqual({
    system: "Be brief.",
    messages: [
      { role: "user", content: [{ type: "text", text: "What is in this picture?" }] },
      { role: "assistant", content: [{ type: "text", text: "A cat." }] },
      {
        role: "user",
        content: [
          { type: "image", image: "aGVsbG8=", mediaType: "image/png" },
          { type: "text", text: "[audio content omitted: the session's model takes no audio]" },
        ],
      },
    ],
    maxTokens: 64,
    temperature: 0.2,
    stopSequences: ["END"],
  });
});

test("requests the session cannot answer say why", () => {
  expect(samplingRequest({ messages: [], maxTokens: 5 })).toEqual({ error: "the request has no messages" });
  expect(samplingRequest({ messages: [{ role: "user", content: { type: "text", text: "hi" } }] })).toEqual({
    error: "the request has no positive maxTokens",
  });
  expect(
    samplingRequest({
      messages: [{ role: "user", content: [{ type: "tool_result", toolUseId: "1", content: [] }] }],
      maxTokens: 5,
    }),
  ).toEqual({ error: 'the request holds content of type "tool_result" (this client offers sampling without tools)' });
});

test("the review shows the system prompt and the last messages, clipped", () => {
  const messages = Array.from({ length: 8 }, (_, i) => ({
    role: i % 2 === 0 ? "user" : "assistant",
    content: { type: "text", text: `message ${i} ${"x".repeat(100)}` },
  }));
  const lines = describeSampling({ systemPrompt: "Be brief.", messages, maxTokens: 5 }, 40);
  expect(lines[0]).toBe("system: Be brief.");
  expect(lines[1]).toBe("(2 earlier messages not shown)");
  expect(lines[2]).toBe(`user: message 2 ${"x".repeat(29)}…`);
  expect(lines).toHaveLength(8);
});
