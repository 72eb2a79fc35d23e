/**
 * `input_required` rounds across `indusr mcp serve --http --stateless`
 * replicas. Two gateway processes mount the same 2026-07-28 server (the
 * both-eras reference fixture over HTTP, its requestState sealed with a key
 * of its own); a 2026 client answers each round itself and sends every retry
 * to the other replica, as a round-robin load balancer would. The server's
 * own rounds (a tool's, a prompt's) pass through the gateway, so any replica
 * carries the retry on.
 * A state the gateway did not give, or gave for another request, is refused
 * -32602 saying so; a 2025-era server's run (server-everything, asking
 * mid-call) lives in the replica that started it, and the other one says why
 * it cannot resume it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { Client, ProtocolError, withInputRequired } from "@modelcontextprotocol/client";
import type { StandardSchemaV1 } from "@modelcontextprotocol/client";
import { makeSandbox, runCli, type Sandbox } from "./support/run-cli";
import {
  HOST_CAPABILITIES,
  gatewayFlags,
  httpTransport,
  mountedName,
  startHttpGateway,
  stopChild,
  type HttpGateway,
} from "./support/relay-client";
import { everythingRow, writeConfig } from "./support/servers";

jest.setTimeout(120_000);

const FIXTURE = path.join(__dirname, "..", "..", "..", "packages", "testkit", "fixtures", "conformance-2026.mjs");

/** Any result, the `input_required` one included (the client's manual mode hands it back as it is). */
const ANY: StandardSchemaV1 = {
  "~standard": { version: 1, vendor: "test", validate: (value) => ({ value }) },
};

interface Round {
  readonly resultType?: string;
  readonly inputRequests?: Record<string, { method: string; params?: { message?: string } }>;
  readonly requestState?: string;
  readonly content?: { type: string; text?: string }[];
}

let sandbox: Sandbox;
let upstream: ChildProcess;
let replicas: HttpGateway[] = [];
const clients: Client[] = [];

function startUpstream(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [FIXTURE, "http"], { stdio: ["ignore", "ignore", "pipe"] });
  return new Promise((resolve, reject) => {
    let seen = "";
    child.stderr.on("data", (chunk: Buffer) => {
      seen += String(chunk);
      const match = /listening at (http:\/\/\S+)/.exec(seen);
      if (match?.[1]) resolve({ child, url: match[1] });
    });
    child.once("exit", (code) => reject(new Error(`fixture exited ${code}: ${seen}`)));
  });
}

/** A 2026-07-28 client of one replica that answers rounds itself (manual mode, per request). */
async function modernClient(gateway: HttpGateway): Promise<Client> {
  const client = new Client(
    { name: "stateless-rounds", version: "1.0.0" },
    { capabilities: HOST_CAPABILITIES, versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await client.connect(httpTransport(gateway.url));
  clients.push(client);
  return client;
}

function callTool(client: Client, params: Record<string, unknown>): Promise<Round> {
  return client.request({ method: "tools/call", params }, withInputRequired(ANY), {
    allowInputRequired: true,
  }) as Promise<Round>;
}

function textOf(round: Round): string {
  return (round.content ?? []).map((block) => block.text ?? "").join("\n");
}

async function refusal(work: Promise<unknown>): Promise<ProtocolError> {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ProtocolError);
  return error as ProtocolError;
}

beforeAll(async () => {
  sandbox = makeSandbox();
  const started = await startUpstream();
  upstream = started.child;
  const config = writeConfig(sandbox.root, { conf: { url: started.url }, everything: everythingRow() });
  // Replicas never pin: the reviewed lock file ships beside the config.
  for (const server of ["conf", "everything"]) {
    const approved = await runCli(["mcp", "approve", server, "--mcp", config], { sandbox });
    if (approved.code !== 0) throw new Error(`mcp approve ${server} failed: ${approved.stderr}`);
  }
  const flags = [...(await gatewayFlags(sandbox)), "--stateless"];
  replicas = await Promise.all([startHttpGateway(sandbox, config, flags), startHttpGateway(sandbox, config, flags)]);
});

afterAll(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  await Promise.all(replicas.map((replica) => replica.stop()));
  await stopChild(upstream);
  sandbox.cleanup();
});

async function toolName(client: Client, server: string, name: string): Promise<string> {
  return mountedName(
    (await client.listTools()).tools.map((tool) => tool.name),
    server,
    name,
  );
}

it("carries a 2026-era server's rounds on, each retry on the other replica", async () => {
  const [a, b] = [await modernClient(replicas[0]!), await modernClient(replicas[1]!)];
  const name = await toolName(a, "conf", "test_input_required_result_multi_round");
  const first = await callTool(a, { name, arguments: {} });
  expect(first.resultType).toBe("input_required");
  expect(first.inputRequests?.step1?.params?.message).toBe("Step 1: What is your name?");
  const second = await callTool(b, {
    name,
    arguments: {},
    inputResponses: { step1: { action: "accept", content: { name: "Ada" } } },
    requestState: first.requestState,
  });
  expect(second.resultType).toBe("input_required");
  expect(second.inputRequests?.step2?.params?.message).toBe("Step 2: What is your favorite color?");
  const done = await callTool(a, {
    name,
    arguments: {},
    inputResponses: { step2: { action: "accept", content: { color: "teal" } } },
    requestState: second.requestState,
  });
  expect(done.resultType ?? "complete").toBe("complete");
  expect(textOf(done)).toBe("Multi-round complete for Ada who likes teal");
});

it("passes a round without a server state on too (the answers alone carry it)", async () => {
  const [a, b] = [await modernClient(replicas[0]!), await modernClient(replicas[1]!)];
  const name = await toolName(a, "conf", "test_input_required_result_elicitation");
  const first = await callTool(a, { name, arguments: {} });
  expect(Object.keys(first.inputRequests ?? {})).toEqual(["user_name"]);
  const done = await callTool(b, {
    name,
    arguments: {},
    inputResponses: { user_name: { action: "accept", content: { name: "Grace" } } },
    requestState: first.requestState,
  });
  expect(textOf(done)).toContain("Grace");
});

it("carries a prompt's round on at the other replica too", async () => {
  const [a, b] = [await modernClient(replicas[0]!), await modernClient(replicas[1]!)];
  const names = (await a.listPrompts()).prompts.map((prompt) => prompt.name);
  const name = mountedName(names, "conf", "test_input_required_result_prompt");
  const get = (client: Client, params: Record<string, unknown>) =>
    client.request({ method: "prompts/get", params }, withInputRequired(ANY), {
      allowInputRequired: true,
    }) as Promise<Round & { messages?: { content: { text?: string } }[] }>;
  const first = await get(a, { name });
  expect(Object.keys(first.inputRequests ?? {})).toEqual(["user_context"]);
  const done = await get(b, {
    name,
    inputResponses: { user_context: { action: "accept", content: { context: "replicas" } } },
    requestState: first.requestState,
  });
  expect(done.messages?.[0]?.content.text).toBe("Prompt with context: replicas");
});

it("refuses -32602 a state it did not give, or gave for another tool, saying so", async () => {
  const [a, b] = [await modernClient(replicas[0]!), await modernClient(replicas[1]!)];
  const multi = await toolName(a, "conf", "test_input_required_result_multi_round");
  const elicit = await toolName(a, "conf", "test_input_required_result_elicitation");
  const given = await callTool(a, { name: multi, arguments: {} });
  const answers = { step1: { action: "accept", content: { name: "Ada" } } };

  const cut = await refusal(
    callTool(b, {
      name: multi,
      arguments: {},
      inputResponses: answers,
      requestState: given.requestState!.slice(0, -7),
    }),
  );
  expect(cut.code).toBe(-32602);
  expect(cut.message).toMatch(/requestState does not decode/);

  const elsewhere = await refusal(
    callTool(b, { name: elicit, arguments: {}, inputResponses: answers, requestState: given.requestState }),
  );
  expect(elsewhere.code).toBe(-32602);
  expect(elsewhere.message).toContain(`requestState was given for tools/call ${multi}, not for tools/call ${elicit}`);
});

it("says why a 2025-era server's run cannot go on at another replica", async () => {
  const [a, b] = [await modernClient(replicas[0]!), await modernClient(replicas[1]!)];
  const name = await toolName(a, "everything", "trigger-elicitation-request");
  const first = await callTool(a, { name, arguments: {} });
  expect(first.resultType).toBe("input_required");
  const answers = Object.fromEntries(Object.keys(first.inputRequests ?? {}).map((key) => [key, { action: "decline" }]));
  const missed = await refusal(
    callTool(b, { name, arguments: {}, inputResponses: answers, requestState: first.requestState }),
  );
  expect(missed.code).toBe(-32602);
  expect(missed.message).toMatch(/Invalid or expired requestState/);
  expect(missed.message).toMatch(/only servers of the 2026-07-28 era can ask questions statelessly/);
  // The run still waits at the replica that started it, which carries it on.
  const done = await callTool(a, { name, arguments: {}, inputResponses: answers, requestState: first.requestState });
  expect(done.resultType ?? "complete").toBe("complete");
});
