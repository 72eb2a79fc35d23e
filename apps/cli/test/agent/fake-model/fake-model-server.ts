/**
 * A scripted model server on 127.0.0.1 that speaks both wire protocols the
 * agent uses: OpenAI Chat Completions (SSE `chat.completion.chunk`s with
 * `tool_calls` deltas) and Anthropic Messages (SSE `message_start` …
 * `tool_use` / `input_json_delta` … `message_stop`). One script of replies
 * drives a whole conversation whichever protocol the client speaks; every
 * request is recorded in a protocol-neutral shape so tests assert on what the
 * model was actually sent (tool results, system prompt, tool list).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { waitFor } from "@indus/testkit";

export type Protocol = "openai" | "anthropic";

export interface ScriptedToolCall {
  readonly id?: string | undefined;
  readonly name: string;
  readonly input?: unknown;
  /** Send these raw argument bytes instead of `JSON.stringify(input)` (malformed JSON tests). */
  readonly rawArguments?: string;
}

export type Reply =
  | {
      readonly kind: "message";
      readonly text?: string | undefined;
      readonly toolCalls?: readonly ScriptedToolCall[];
      readonly usage?: { readonly input: number; readonly output: number };
      /** Pause between SSE chunks, to make a stream observable. */
      readonly chunkDelayMs?: number;
      /** Stop mid-stream with a provider error event after the text. */
      readonly failMidStream?: string;
    }
  | {
      readonly kind: "error";
      readonly status: number;
      readonly message: string;
      /** Seconds, sent as `retry-after`. */
      readonly retryAfter?: number;
    }
  /** Accept the request and never answer (until the client gives up). */
  | { readonly kind: "hang" };

export type Step = Reply | ((request: SeenRequest) => Reply | Promise<Reply>);

export interface SeenToolCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

export interface SeenToolResult {
  readonly id: string;
  readonly text: string;
  /** Anthropic carries `is_error`; OpenAI has no such field (undefined). */
  readonly isError?: boolean;
}

export interface SeenMessage {
  readonly role: "user" | "assistant" | "tool";
  readonly text: string;
  readonly toolCalls: readonly SeenToolCall[];
  readonly toolResults: readonly SeenToolResult[];
}

export interface SeenRequest {
  readonly protocol: Protocol;
  readonly model: string;
  readonly system: string;
  readonly messages: readonly SeenMessage[];
  readonly tools: readonly { readonly name: string; readonly description: string; readonly parameters: unknown }[];
  readonly stream: boolean;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: unknown;
}

// ---- script helpers -------------------------------------------------------

export const say = (text: string, extra: Partial<Extract<Reply, { kind: "message" }>> = {}): Reply => ({
  kind: "message",
  text,
  ...extra,
});

export const callTool = (name: string, input: unknown, extra: { text?: string; id?: string } = {}): Reply => ({
  kind: "message",
  text: extra.text,
  toolCalls: [{ name, input, id: extra.id }],
});

export const callTools = (calls: readonly ScriptedToolCall[], text?: string): Reply => ({
  kind: "message",
  text,
  toolCalls: calls,
});

export const rateLimited = (retryAfter = 0, message = "rate limit exceeded"): Reply => ({
  kind: "error",
  status: 429,
  message,
  retryAfter,
});

export const fail = (status: number, message: string, retryAfter?: number): Reply => ({
  kind: "error",
  status,
  message,
  ...(retryAfter !== undefined ? { retryAfter } : {}),
});

/** The last tool results the model was sent (from the newest tool message). */
export function lastToolResults(request: SeenRequest): readonly SeenToolResult[] {
  for (let i = request.messages.length - 1; i >= 0; i -= 1) {
    const message = request.messages[i]!;
    if (message.toolResults.length > 0) return message.toolResults;
  }
  return [];
}

// ---- request normalisation ------------------------------------------------

type Json = Record<string, unknown>;

function textField(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((part) =>
        part && typeof part === "object" && (part as Json).type === "text" ? textField((part as Json).text) : "",
      )
      .join("");
  }
  return "";
}

function parseArguments(raw: unknown): unknown {
  if (typeof raw !== "string") return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function normaliseOpenAI(body: Json, headers: http.IncomingHttpHeaders): SeenRequest {
  const messages: SeenMessage[] = [];
  const system: string[] = [];
  for (const raw of (body.messages as Json[]) ?? []) {
    const role = raw.role as string;
    if (role === "system" || role === "developer") {
      system.push(textOf(raw.content));
    } else if (role === "tool") {
      const result = { id: String(raw.tool_call_id), text: textOf(raw.content) };
      const previous = messages[messages.length - 1];
      if (previous && previous.role === "tool") (previous.toolResults as SeenToolResult[]).push(result);
      else messages.push({ role: "tool", text: "", toolCalls: [], toolResults: [result] });
    } else {
      const toolCalls = ((raw.tool_calls as Json[]) ?? []).map((call) => {
        const fn = call.function as Json;
        return { id: String(call.id), name: String(fn.name), input: parseArguments(fn.arguments) };
      });
      messages.push({
        role: role === "assistant" ? "assistant" : "user",
        text: textOf(raw.content),
        toolCalls,
        toolResults: [],
      });
    }
  }
  const tools = ((body.tools as Json[]) ?? []).map((tool) => {
    const fn = tool.function as Json;
    return { name: String(fn.name), description: textField(fn.description), parameters: fn.parameters };
  });
  return {
    protocol: "openai",
    model: String(body.model),
    system: system.join("\n"),
    messages,
    tools,
    stream: body.stream === true,
    headers,
    body,
  };
}

function normaliseAnthropic(body: Json, headers: http.IncomingHttpHeaders): SeenRequest {
  const messages: SeenMessage[] = [];
  for (const raw of (body.messages as Json[]) ?? []) {
    const role = raw.role as string;
    const parts: Json[] =
      typeof raw.content === "string" ? [{ type: "text", text: raw.content }] : ((raw.content as Json[]) ?? []);
    const toolResults = parts
      .filter((part) => part.type === "tool_result")
      .map((part) => ({ id: String(part.tool_use_id), text: textOf(part.content), isError: part.is_error === true }));
    const toolCalls = parts
      .filter((part) => part.type === "tool_use")
      .map((part) => ({ id: String(part.id), name: String(part.name), input: part.input }));
    const text = parts
      .filter((part) => part.type === "text")
      .map((part) => String(part.text))
      .join("");
    if (toolResults.length > 0) messages.push({ role: "tool", text: "", toolCalls: [], toolResults });
    if (toolResults.length === 0 || text.length > 0) {
      messages.push({ role: role === "assistant" ? "assistant" : "user", text, toolCalls, toolResults: [] });
    }
  }
  const tools = ((body.tools as Json[]) ?? []).map((tool) => ({
    name: String(tool.name),
    description: textField(tool.description),
    parameters: tool.input_schema,
  }));
  return {
    protocol: "anthropic",
    model: String(body.model),
    system: textOf(body.system),
    messages,
    tools,
    stream: body.stream === true,
    headers,
    body,
  };
}

// ---- wire rendering -------------------------------------------------------

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Split a string into a few pieces so deltas really are deltas. */
function pieces(text: string, count = 3): string[] {
  if (text.length <= count) return [...text];
  const size = Math.ceil(text.length / count);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

interface Sse {
  send(event: string | undefined, data: unknown): Promise<void>;
  raw(text: string): Promise<void>;
}

function sseWriter(res: http.ServerResponse, delayMs: number): Sse {
  const write = async (text: string) => {
    if (res.destroyed) return;
    res.write(text);
    if (delayMs > 0) await sleep(delayMs);
  };
  return {
    send: (event, data) => write(`${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`),
    raw: write,
  };
}

let counter = 0;
const nextId = (prefix: string) => `${prefix}${(counter += 1).toString().padStart(4, "0")}`;

async function streamOpenAI(
  res: http.ServerResponse,
  reply: Extract<Reply, { kind: "message" }>,
  request: SeenRequest,
): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const sse = sseWriter(res, reply.chunkDelayMs ?? 0);
  const id = nextId("chatcmpl-");
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Json, finish: string | null = null) => ({
    id,
    object: "chat.completion.chunk",
    created,
    model: request.model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  await sse.send(undefined, chunk({ role: "assistant", content: "" }));
  for (const piece of reply.text ? pieces(reply.text) : []) await sse.send(undefined, chunk({ content: piece }));
  if (reply.failMidStream) {
    await sse.send(undefined, { error: { message: reply.failMidStream, type: "server_error" } });
    res.end();
    return;
  }
  const calls = reply.toolCalls ?? [];
  for (const [index, call] of calls.entries()) {
    const args = call.rawArguments ?? JSON.stringify(call.input ?? {});
    await sse.send(
      undefined,
      chunk({
        tool_calls: [
          { index, id: call.id ?? nextId("call_"), type: "function", function: { name: call.name, arguments: "" } },
        ],
      }),
    );
    for (const piece of pieces(args))
      await sse.send(undefined, chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  }
  await sse.send(undefined, chunk({}, calls.length > 0 ? "tool_calls" : "stop"));
  const usage = reply.usage ?? { input: 10, output: 5 };
  const body = request.body as Json;
  if ((body.stream_options as Json | undefined)?.include_usage) {
    await sse.send(undefined, {
      id,
      object: "chat.completion.chunk",
      created,
      model: request.model,
      choices: [],
      usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
    });
  }
  await sse.raw("data: [DONE]\n\n");
  res.end();
}

async function streamAnthropic(
  res: http.ServerResponse,
  reply: Extract<Reply, { kind: "message" }>,
  request: SeenRequest,
): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const sse = sseWriter(res, reply.chunkDelayMs ?? 0);
  const usage = reply.usage ?? { input: 10, output: 5 };
  await sse.send("message_start", {
    type: "message_start",
    message: {
      id: nextId("msg_"),
      type: "message",
      role: "assistant",
      model: request.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: usage.input, output_tokens: 1 },
    },
  });
  let index = 0;
  if (reply.text) {
    await sse.send("content_block_start", {
      type: "content_block_start",
      index,
      content_block: { type: "text", text: "" },
    });
    for (const piece of pieces(reply.text)) {
      await sse.send("content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "text_delta", text: piece },
      });
    }
    if (reply.failMidStream) {
      await sse.send("error", { type: "error", error: { type: "overloaded_error", message: reply.failMidStream } });
      res.end();
      return;
    }
    await sse.send("content_block_stop", { type: "content_block_stop", index });
    index += 1;
  } else if (reply.failMidStream) {
    await sse.send("error", { type: "error", error: { type: "overloaded_error", message: reply.failMidStream } });
    res.end();
    return;
  }
  const calls = reply.toolCalls ?? [];
  for (const call of calls) {
    await sse.send("content_block_start", {
      type: "content_block_start",
      index,
      content_block: { type: "tool_use", id: call.id ?? nextId("toolu_"), name: call.name, input: {} },
    });
    for (const piece of pieces(call.rawArguments ?? JSON.stringify(call.input ?? {}))) {
      await sse.send("content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: piece },
      });
    }
    await sse.send("content_block_stop", { type: "content_block_stop", index });
    index += 1;
  }
  await sse.send("message_delta", {
    type: "message_delta",
    delta: { stop_reason: calls.length > 0 ? "tool_use" : "end_turn", stop_sequence: null },
    usage: { output_tokens: usage.output },
  });
  await sse.send("message_stop", { type: "message_stop" });
  res.end();
}

function sendError(res: http.ServerResponse, protocol: Protocol, reply: Extract<Reply, { kind: "error" }>): void {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (reply.retryAfter !== undefined) headers["retry-after"] = String(reply.retryAfter);
  const anthropicType =
    reply.status === 429
      ? "rate_limit_error"
      : reply.status === 401
        ? "authentication_error"
        : reply.status === 404
          ? "not_found_error"
          : reply.status >= 500
            ? "api_error"
            : "invalid_request_error";
  const body =
    protocol === "anthropic"
      ? { type: "error", error: { type: anthropicType, message: reply.message } }
      : {
          error: {
            message: reply.message,
            type: reply.status === 429 ? "rate_limit_exceeded" : "server_error",
            code: reply.status,
          },
        };
  res.writeHead(reply.status, headers);
  res.end(JSON.stringify(body));
}

// ---- the server -----------------------------------------------------------

export interface FakeModelOptions {
  readonly script?: readonly Step[];
  /** When set, requests must carry this key (`Authorization: Bearer` or `x-api-key`). */
  readonly apiKey?: string;
  readonly models?: readonly string[];
}

export interface FakeModelServer {
  /** Base URL including `/v1`, for `--base-url`. */
  readonly baseUrl: string;
  readonly port: number;
  /** Every model request, in arrival order. */
  readonly requests: SeenRequest[];
  /** Requests to `/v1/models` (the agent's preflight). */
  readonly preflights: { readonly protocol: Protocol; readonly headers: http.IncomingHttpHeaders }[];
  /** Append more replies. */
  push(...steps: Step[]): void;
  /** Replies not yet consumed. */
  remaining(): number;
  /** Resolves when `count` model requests have arrived (no deadline of its own: the test's ceiling). */
  waitForRequests(count: number): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeModel(options: FakeModelOptions = {}): Promise<FakeModelServer> {
  const script: Step[] = [...(options.script ?? [])];
  const requests: SeenRequest[] = [];
  const preflights: { protocol: Protocol; headers: http.IncomingHttpHeaders }[] = [];
  const hanging = new Set<http.ServerResponse>();
  const models = options.models ?? ["fake-model"];

  const authorised = (req: http.IncomingMessage, protocol: Protocol): boolean => {
    if (options.apiKey === undefined) return true;
    if (protocol === "anthropic")
      return req.headers["x-api-key"] === options.apiKey || req.headers.authorization === `Bearer ${options.apiKey}`;
    return req.headers.authorization === `Bearer ${options.apiKey}`;
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const protocol: Protocol =
      req.headers["anthropic-version"] || url.pathname.endsWith("/messages") ? "anthropic" : "openai";

    if (req.method === "GET" && url.pathname === "/v1/models") {
      preflights.push({ protocol, headers: req.headers });
      if (!authorised(req, protocol))
        return sendError(res, protocol, { kind: "error", status: 401, message: "invalid api key" });
      const data =
        protocol === "anthropic"
          ? {
              data: models.map((id) => ({ type: "model", id, display_name: id, created_at: "2025-01-01T00:00:00Z" })),
              has_more: false,
            }
          : { object: "list", data: models.map((id) => ({ id, object: "model", created: 0, owned_by: "fake" })) };
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(data));
      return;
    }
    const isChat = req.method === "POST" && url.pathname === "/v1/chat/completions";
    const isMessages = req.method === "POST" && url.pathname === "/v1/messages";
    if (!isChat && !isMessages) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `no route ${req.method} ${url.pathname}` } }));
      return;
    }
    if (!authorised(req, protocol))
      return sendError(res, protocol, { kind: "error", status: 401, message: "invalid api key" });
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Json;
    const seen = isChat ? normaliseOpenAI(body, req.headers) : normaliseAnthropic(body, req.headers);
    requests.push(seen);
    const step = script.shift();
    const reply: Reply =
      step === undefined
        ? fail(500, "fake model: the script has no more replies")
        : typeof step === "function"
          ? await step(seen)
          : step;
    if (reply.kind === "error") return sendError(res, protocol, reply);
    if (reply.kind === "hang") {
      hanging.add(res);
      res.on("close", () => hanging.delete(res));
      return;
    }
    if (!seen.stream)
      return sendError(res, protocol, {
        kind: "error",
        status: 400,
        message: "fake model: only streaming requests are scripted",
      });
    if (protocol === "anthropic") await streamAnthropic(res, reply, seen);
    else await streamOpenAI(res, reply, seen);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `fake model crashed: ${String(error)}` } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    preflights,
    push: (...steps) => script.push(...steps),
    remaining: () => script.length,
    waitForRequests: async (count) => {
      await waitFor(`${count} model requests`, () => {
        if (requests.length >= count) return true;
        throw new Error(`${requests.length} so far`);
      });
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
