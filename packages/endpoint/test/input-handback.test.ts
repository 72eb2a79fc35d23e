/**
 * A caller that answers a 2026-07-28 server's questions itself (a gateway
 * passing them to its own client) gets them back instead of having them
 * answered through its relayTo, and carries the rounds on with retries that
 * need nothing kept in between: against the both-eras reference fixture over
 * stdio (its `requestState` sealed by the server). A retry reaching the
 * 2025-era side is refused -32602 rather than sent without its state.
 */
import type { JsonObject } from "@indus/contract";
import { createServerEndpoint, type McpServerEndpoint } from "@indus/endpoint";
import { fixture } from "./helpers/servers";

let open: McpServerEndpoint[] = [];

async function connect(protocol: "2026-07-28" | "legacy"): Promise<McpServerEndpoint> {
  const config = fixture("both", "conformance-2026.mjs", [], { protocol });
  const endpoint = createServerEndpoint(config, undefined, {
    host: { elicit: () => Promise.reject(new Error("asked")) },
  });
  open.push(endpoint);
  await endpoint.open();
  return endpoint;
}

afterEach(async () => {
  await Promise.all(open.map((endpoint) => endpoint.close()));
  open = [];
});

const accept = (content: JsonObject) => ({ action: "accept", content });

it("hands a 2026-era server's questions back, and its retries carry the rounds on", async () => {
  const endpoint = await connect("2026-07-28");
  const tool = "test_input_required_result_multi_round";
  const first = await endpoint.invoke(tool, {}, { inputRound: { kind: "hand-back" } });
  expect(first.isError).toBe(true);
  expect(first.questions).toMatchObject({
    kind: "input-required",
    inputRequests: { step1: { method: "elicitation/create" } },
    requestState: expect.any(String),
  });
  const second = await endpoint.invoke(
    tool,
    {},
    {
      inputRound: {
        kind: "retry",
        inputResponses: { step1: accept({ name: "Ada" }) },
        requestState: first.questions!.requestState!,
      },
    },
  );
  expect(Object.keys(second.questions!.inputRequests)).toEqual(["step2"]);
  const done = await endpoint.invoke(
    tool,
    {},
    {
      inputRound: {
        kind: "retry",
        inputResponses: { step2: accept({ color: "teal" }) },
        requestState: second.questions!.requestState!,
      },
    },
  );
  expect(done.questions).toBeUndefined();
  expect(done.content).toEqual([{ type: "text", text: "Multi-round complete for Ada who likes teal" }]);
});

it("hands a prompt's input_required result back as the server sent it", async () => {
  const endpoint = await connect("2026-07-28");
  const prompt = "test_input_required_result_prompt";
  const asked = await endpoint.getPrompt(prompt, {}, { inputRound: { kind: "hand-back" } });
  expect(asked).toMatchObject({ resultType: "input_required", inputRequests: { user_context: {} } });
  const got = await endpoint.getPrompt(
    prompt,
    {},
    {
      inputRound: { kind: "retry", inputResponses: { user_context: accept({ context: "tests" }) } },
    },
  );
  expect(got).toMatchObject({ messages: [{ content: { text: "Prompt with context: tests" } }] });
});

it("refuses -32602 a retry that reaches a 2025-era server", async () => {
  const endpoint = await connect("legacy");
  const retry = { kind: "retry", inputResponses: {}, requestState: "sealed-by-another-era" } as const;
  await expect(
    endpoint.invoke("test_input_required_result_elicitation", {}, { inputRound: retry }),
  ).rejects.toMatchObject({ kind: "protocol", rpcCode: -32602, message: expect.stringMatching(/no longer speaks/) });
});
