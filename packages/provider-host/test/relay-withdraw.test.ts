/**
 * A question a mounted server asks during a call can outlive the call: the
 * server answers the call without waiting for it, or, in a gateway, a
 * question asked outside any call arrives with the call's answer and is
 * taken for the call's. Over 2025-era HTTP the call's own stream then ends
 * while the client still holds the question (or before it is sent): the
 * question must still reach the client, and its withdrawal
 * (`notifications/cancelled`) too, on the session's GET stream; and a JSON
 * answer, which carries no notification, must not swallow a withdrawal.
 */
import { serveHttp } from "@indus/provider-host";
import type { HttpProviderHost } from "@indus/provider-host";
import type { ClientHostHooks, ToolBox } from "@indus/contract";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { waitFor } from "@indus/testkit";

jest.setTimeout(60_000);

type Method = "elicitation/create" | "sampling/createMessage" | "roots/list";

/** One question of the box's tool: asking it, its withdrawal, and whether it failed to reach the client. */
interface Question {
  readonly ask: () => void;
  readonly withdraw: AbortController;
  failed: boolean;
}

const hosts: HttpProviderHost[] = [];
const clients: Client[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {});
  for (const host of hosts.splice(0)) await host.close({ graceMs: 0 });
});

/** Asks the call's client `method` and answers the call at once, the question still open. */
function ask(relayTo: ClientHostHooks | undefined, method: Method, signal: AbortSignal): Promise<unknown> {
  switch (method) {
    case "elicitation/create":
      return relayTo!.elicit!(
        "upstream",
        { message: "Still there?", requestedSchema: { type: "object", properties: {} } },
        signal,
      );
    case "sampling/createMessage":
      return relayTo!.createMessage!("upstream", { messages: [], maxTokens: 5 }, signal);
    case "roots/list":
      return relayTo!.listRoots!("upstream", signal);
  }
}

/**
 * A box with one tool, `ask_and_answer {method, after}`: it asks its client
 * `method` and answers without waiting, or (`after`) answers and leaves the
 * asking to the test, once the client has the answer.
 */
function askingBox(questions: Question[]): ToolBox {
  return {
    descriptors: () => [
      {
        name: "ask_and_answer",
        description: "Asks its client something and answers without waiting",
        parameters: { type: "object", properties: { method: { type: "string" }, after: { type: "boolean" } } },
      },
    ],
    runner: {
      run: (call, options) => {
        const { method, after } = call.input as { method: Method; after: boolean };
        const withdraw = new AbortController();
        const question: Question = {
          ask: () =>
            void ask(options?.relayTo, method, withdraw.signal).catch(() => {
              question.failed = !withdraw.signal.aborted;
            }),
          withdraw,
          failed: false,
        };
        questions.push(question);
        if (!after) question.ask();
        return Promise.resolve({ callId: call.id, content: [{ type: "text", text: "asked" }], isError: false });
      },
    },
  };
}

/** A 2025-era client that holds every question until it is withdrawn, recording both. */
function holdingClient() {
  const seen = { asked: [] as string[], withdrawn: [] as string[] };
  const client = new Client(
    { name: "holding", version: "1.0.0" },
    { capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} } },
  );
  const hold = (method: Method) => (_request: unknown, ctx: { mcpReq: { signal: AbortSignal } }) => {
    seen.asked.push(method);
    return new Promise<never>((_resolve, reject) => {
      ctx.mcpReq.signal.addEventListener("abort", () => {
        seen.withdrawn.push(method);
        reject(new Error("withdrawn"));
      });
    });
  };
  client.setRequestHandler("elicitation/create", hold("elicitation/create") as never);
  client.setRequestHandler("sampling/createMessage", hold("sampling/createMessage") as never);
  client.setRequestHandler("roots/list", hold("roots/list") as never);
  clients.push(client);
  return { client, seen };
}

const METHODS: Method[] = ["elicitation/create", "sampling/createMessage", "roots/list"];

describe.each([
  ["SSE answers", false],
  ["JSON answers", true],
])("2025 era over HTTP with %s", (_answers, jsonResponse) => {
  test.each(
    METHODS.flatMap((method) => [
      [method, "during"],
      [method, "after"],
    ]),
  )("%s asked %s its call, withdrawn after the call was answered, is cancelled at the client", async (method, when) => {
    const questions: Question[] = [];
    const host = await serveHttp(askingBox(questions), { jsonResponse });
    hosts.push(host);
    const { client, seen } = holdingClient();
    await client.connect(new StreamableHTTPClientTransport(host.url));
    // A question may need the GET stream, which the SDK client opens just after connecting: until then it fails.
    for (let attempt = 1; ; attempt++) {
      if (attempt > 50) throw new Error(`${method} never reached the client`);
      const result = await client.callTool({ name: "ask_and_answer", arguments: { method, after: when === "after" } });
      expect(result.content).toEqual([{ type: "text", text: "asked" }]);
      const question = questions.at(-1)!;
      if (when === "after") question.ask();
      await waitFor("the question reached the client or failed", () => seen.asked.length === 1 || question.failed);
      if (!question.failed) break;
    }
    questions.at(-1)!.withdraw.abort("changed my mind");
    await waitFor("the client told the question was withdrawn", () => seen.withdrawn.length === 1);
    expect(seen).toEqual({ asked: [method], withdrawn: [method] });
  });
});
