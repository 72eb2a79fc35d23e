// The clients here are the v1 SDK's (@modelcontextprotocol/sdk) on purpose: they stand for the
// 2025-era clients the gateway serves in the wild. v2 clients: modern-era.test.ts, readme-example.test.ts.
import { request as httpRequest, type IncomingMessage } from "node:http";
import { isProtocolFault } from "@indus/contract";
import { DEFAULT_TOKEN_ENV, serveHttp } from "@indus/provider-host";
import type { HttpHostOptions, HttpProviderHost } from "@indus/provider-host";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { ALL_BUT_DATE, waitFor } from "@indus/testkit";
import { createDemoBox } from "./fixtures/demo-box.mjs";
import { INITIALIZE, MCP_HEADERS, messagesOf, rawRequest } from "./support/http";

jest.setTimeout(60_000);

const hosts: HttpProviderHost[] = [];
const clients: Client[] = [];

afterEach(async () => {
  jest.useRealTimers();
  for (const client of clients.splice(0)) await client.close().catch(() => {});
  for (const host of hosts.splice(0)) await host.close({ graceMs: 0 });
});

async function start(options: HttpHostOptions = {}, demo = createDemoBox()) {
  const host = await serveHttp(demo.box, options);
  hosts.push(host);
  return { host, ...demo };
}

async function connect(url: URL, headers: Record<string, string> = {}) {
  // The SDK client opens its GET stream just after initialization: noted here as the event to wait for.
  let streamOpen = false;
  const watching: FetchLike = async (input, init) => {
    const response = await fetch(input, init);
    if (init?.method === "GET" && response.ok) streamOpen = true;
    return response;
  };
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers }, fetch: watching });
  const client = new Client({ name: "http-test", version: "1.0.0" });
  await client.connect(transport);
  clients.push(client);
  return { client, transport, streamOpen: () => streamOpen };
}

async function rawSession(host: HttpProviderHost): Promise<string> {
  const response = await rawRequest(host.url, { body: JSON.stringify(INITIALIZE) });
  expect(response.status).toBe(200);
  return String(response.headers["mcp-session-id"]);
}

/** A raw GET of the session's standalone SSE stream (the SDK client would reconnect on its own). */
function openSse(host: HttpProviderHost, sessionId: string, onResponse: (response: IncomingMessage) => void) {
  return httpRequest(
    {
      host: host.url.hostname,
      port: host.port,
      path: host.url.pathname,
      method: "GET",
      headers: { ...sessionHeaders(sessionId), accept: "text/event-stream" },
    },
    onResponse,
  );
}

function sessionHeaders(sessionId: string): Record<string, string> {
  return { ...MCP_HEADERS, "mcp-session-id": sessionId, "mcp-protocol-version": "2025-06-18" };
}

async function expectStillServing(host: HttpProviderHost, client?: Client): Promise<void> {
  const probe = client ?? (await connect(host.url)).client;
  const result = await probe.callTool({ name: "echo", arguments: { message: "alive" } });
  expect(result.content).toEqual([{ type: "text", text: "Echo: alive" }]);
}

describe("sessions", () => {
  it("serves many concurrent sessions, each with its own id", async () => {
    const { host } = await start();
    const sessions = await Promise.all(Array.from({ length: 24 }, () => connect(host.url)));
    expect(new Set(sessions.map((session) => session.transport.sessionId)).size).toBe(24);
    expect(host.sessionCount).toBe(24);
    const answers = await Promise.all(
      sessions.flatMap(({ client }, index) =>
        Array.from({ length: 5 }, (_, call) =>
          client.callTool({ name: "echo", arguments: { message: `${index}/${call}` } }),
        ),
      ),
    );
    expect(answers.map((answer) => (answer.content as Array<{ text: string }>)[0]?.text)).toEqual(
      sessions.flatMap((_, index) => Array.from({ length: 5 }, (__, call) => `Echo: ${index}/${call}`)),
    );
    await Promise.all(sessions.map(({ transport }) => transport.terminateSession()));
    await waitUntil(() => host.sessionCount === 0);
  });

  it("ends a session on DELETE; its id is then unknown", async () => {
    const { host } = await start();
    const sessionId = await rawSession(host);
    expect(host.sessionCount).toBe(1);
    const deleted = await rawRequest(host.url, { method: "DELETE", headers: sessionHeaders(sessionId) });
    expect(deleted.status).toBe(200);
    await waitUntil(() => host.sessionCount === 0);
    const after = await rawRequest(host.url, {
      headers: sessionHeaders(sessionId),
      body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" }),
    });
    expect(after.status).toBe(404);
    expect(JSON.parse(after.body).error.code).toBe(-32001);
  });

  it("announces tool changes to every other session on its stream", async () => {
    const { host } = await start();
    const first = await connect(host.url);
    const second = await connect(host.url);
    let changes = 0;
    second.client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changes++;
    });
    await waitUntil(second.streamOpen);
    await first.client.callTool({ name: "grow", arguments: {} });
    await waitUntil(() => changes === 1);
    expect((await second.client.listTools()).tools.map((tool) => tool.name)).toContain("extra_10");
  });

  it("carries progress and cancellation over HTTP", async () => {
    const { host, state } = await start();
    const { client } = await connect(host.url);
    const reports: number[] = [];
    // Each report is answered by an advance, so the next one (and the result)
    // leaves only once this one arrived: all three are seen whatever the load.
    await client.callTool({ name: "slow", arguments: { paced: true, steps: 3 } }, undefined, {
      onprogress: (progress) => {
        reports.push(progress.progress);
        void client.callTool({ name: "slow", arguments: { advance: true } });
      },
    });
    // In order, with the caller's token.
    expect(reports).toEqual([1, 2, 3]);
    const controller = new AbortController();
    const call = client.callTool({ name: "slow", arguments: { ms: 60_000 } }, undefined, { signal: controller.signal });
    await waitUntil(() => state.started === 2);
    controller.abort();
    await expect(call).rejects.toThrow();
    await waitUntil(() => state.aborted === 1);
    // The cancelled call's exchange is ended, so it blocks neither idling nor a drain.
    await waitUntil(() => host.inFlight === 0);
    await expectStillServing(host, client);
  });

  it("answers with plain JSON when asked, and ends cancelled exchanges there too", async () => {
    const { host, state } = await start({ jsonResponse: true });
    const { client } = await connect(host.url);
    await expectStillServing(host, client);
    const controller = new AbortController();
    const call = client.callTool({ name: "slow", arguments: { ms: 60_000 } }, undefined, { signal: controller.signal });
    await waitUntil(() => state.started === 1);
    controller.abort();
    await expect(call).rejects.toThrow();
    await waitUntil(() => state.aborted === 1 && host.inFlight === 0);
    await expectStillServing(host, client);
  });

  it("takes arguments of a megabyte (far above 100 kB) by default", async () => {
    const { host } = await start();
    const { client } = await connect(host.url);
    const message = "m".repeat(1024 * 1024);
    const result = await client.callTool({ name: "echo", arguments: { message } });
    expect((result.content as Array<{ text: string }>)[0]?.text.length).toBe(message.length + "Echo: ".length);
  });
});

describe("the session wire", () => {
  const ping = (id: number) => ({ jsonrpc: "2.0", id, method: "ping" });

  it("answers a batch of requests on one stream, or as one JSON array in JSON mode", async () => {
    for (const jsonResponse of [false, true]) {
      const { host } = await start({ jsonResponse });
      const sessionId = await rawSession(host);
      const response = await rawRequest(host.url, {
        headers: sessionHeaders(sessionId),
        body: JSON.stringify([ping(7), ping(8)]),
      });
      expect(response.status).toBe(200);
      expect(response.headers["mcp-session-id"]).toBe(sessionId);
      const answers = jsonResponse ? (JSON.parse(response.body) as Array<{ id: number }>) : messagesOf(response);
      expect(answers.map((answer) => answer.id).sort()).toEqual([7, 8]);
    }
  });

  it("refuses a second initialize, an over-long batch, a second GET stream and a GET that takes no SSE", async () => {
    const { host } = await start();
    const sessionId = await rawSession(host);
    const again = await rawRequest(host.url, { headers: sessionHeaders(sessionId), body: JSON.stringify(INITIALIZE) });
    expect([again.status, JSON.parse(again.body).error.code]).toEqual([400, -32600]);
    const batch = Array.from({ length: 101 }, (_, index) => ping(index));
    const long = await rawRequest(host.url, { headers: sessionHeaders(sessionId), body: JSON.stringify(batch) });
    expect([long.status, JSON.parse(long.body).error.code]).toEqual([400, -32600]);
    const notSse = await rawRequest(host.url, {
      method: "GET",
      headers: { ...sessionHeaders(sessionId), accept: "application/json" },
    });
    expect(notSse.status).toBe(406);
    const first = await new Promise<{ destroy(): void }>((resolve, reject) => {
      const outgoing = openSse(host, sessionId, (response) => {
        expect(response.statusCode).toBe(200);
        resolve(outgoing);
      });
      outgoing.on("error", () => {});
      outgoing.once("error", reject);
      outgoing.end();
    });
    const second = await rawRequest(host.url, {
      method: "GET",
      headers: { ...sessionHeaders(sessionId), accept: "text/event-stream" },
    });
    expect([second.status, JSON.parse(second.body).error.code]).toEqual([409, -32000]);
    first.destroy();
  });

  it("keeps serving when a session ends under a running call that still reports progress", async () => {
    const { host, state } = await start();
    const sessionId = await rawSession(host);
    const call = {
      jsonrpc: "2.0",
      id: 5,
      method: "tools/call",
      params: { name: "slow", arguments: { ms: 400, steps: 8 }, _meta: { progressToken: "p" } },
    };
    const running = rawRequest(host.url, { headers: sessionHeaders(sessionId), body: JSON.stringify(call) });
    await waitUntil(() => state.started === 1);
    const ended = await rawRequest(host.url, { method: "DELETE", headers: sessionHeaders(sessionId) });
    expect(ended.status).toBe(200);
    await running;
    // The call is over (aborted or done), so its last progress reports have been tried.
    await waitUntil(() => host.inFlight === 0);
    await expectStillServing(host);
  });

  it("takes a notification alone with 202 and no body", async () => {
    const { host } = await start();
    const sessionId = await rawSession(host);
    const response = await rawRequest(host.url, {
      headers: sessionHeaders(sessionId),
      body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
    });
    expect([response.status, response.body]).toEqual([202, ""]);
  });
});

describe("stateless mode", () => {
  it("serves clients without sessions, a fresh server per request", async () => {
    const { host } = await start({ stateless: true });
    const sessions = await Promise.all(Array.from({ length: 8 }, () => connect(host.url)));
    for (const { transport } of sessions) expect(transport.sessionId).toBeUndefined();
    const answers = await Promise.all(
      sessions.map(({ client }, index) => client.callTool({ name: "echo", arguments: { message: String(index) } })),
    );
    expect(answers.map((answer) => (answer.content as Array<{ text: string }>)[0]?.text)).toEqual(
      sessions.map((_, index) => `Echo: ${index}`),
    );
    expect(host.sessionCount).toBe(0);
    const get = await rawRequest(host.url, { method: "GET", headers: { accept: "text/event-stream" } });
    expect(get.status).toBe(405);
  });

  it("cancels a call whose requester went away", async () => {
    // Without sessions a notifications/cancelled cannot be routed, so the
    // requester disconnecting is the cancellation signal.
    const { host, state } = await start({ stateless: true });
    const outgoing = httpRequest({
      host: host.url.hostname,
      port: host.port,
      path: host.url.pathname,
      method: "POST",
      headers: { ...MCP_HEADERS, "mcp-protocol-version": "2025-06-18" },
    });
    outgoing.on("error", () => {});
    outgoing.end(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "slow", arguments: { ms: 60_000 } },
      }),
    );
    await waitUntil(() => state.started === 1);
    outgoing.destroy();
    await waitUntil(() => state.aborted === 1);
    await waitUntil(() => host.inFlight === 0);
  });
});

describe("bad input", () => {
  it("answers each kind of bad request with the proper status and error, and keeps serving", async () => {
    const { host } = await start({ maxBodyBytes: 2048 });
    const { client } = await connect(host.url);
    const sessionId = await rawSession(host);
    const cases: Array<[string, Parameters<typeof rawRequest>[1], number, number | undefined]> = [
      ["malformed JSON", { body: "{not json" }, 400, -32700],
      ["not JSON-RPC", { headers: sessionHeaders(sessionId), body: '{"hello":"world"}' }, 400, -32700],
      ["wrong content type", { headers: { ...MCP_HEADERS, "content-type": "text/plain" }, body: "{}" }, 415, -32000],
      ["no Accept", { headers: { "content-type": "application/json" }, body: JSON.stringify(INITIALIZE) }, 406, -32000],
      ["oversized body", { body: JSON.stringify({ ...INITIALIZE, pad: "x".repeat(4096) }) }, 413, -32000],
      [
        "unknown session",
        { headers: sessionHeaders("no-such-session"), body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' },
        404,
        -32001,
      ],
      ["no session", { body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' }, 400, -32000],
      ["wrong method", { method: "PUT", body: "{}" }, 405, -32000],
      ["wrong path", { path: "/elsewhere", body: "{}" }, 404, -32000],
      [
        "bad protocol version",
        {
          headers: { ...sessionHeaders(sessionId), "mcp-protocol-version": "1999-01-01" },
          body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
        },
        400,
        -32000,
      ],
    ];
    for (const [name, options, status, code] of cases) {
      const response = await rawRequest(host.url, options);
      expect({ name, status: response.status }).toEqual({ name, status });
      if (code !== undefined) expect({ name, code: JSON.parse(response.body).error.code }).toEqual({ name, code });
    }
    await expectStillServing(host, client);
  });

  it("answers unknown methods and tools inside a session with JSON-RPC errors", async () => {
    const { host } = await start();
    const sessionId = await rawSession(host);
    const call = async (frame: object) =>
      messagesOf(await rawRequest(host.url, { headers: sessionHeaders(sessionId), body: JSON.stringify(frame) }))[0];
    expect((await call({ jsonrpc: "2.0", id: 5, method: "no/such" }))?.error?.code).toBe(-32601);
    expect((await call({ jsonrpc: "2.0", id: 6, method: "tools/call", params: { name: "nope" } }))?.error?.code).toBe(
      -32602,
    );
    const invalid = await call({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "echo", arguments: {} },
    });
    expect(invalid?.result).toEqual({
      content: [
        { type: "text", text: "Invalid arguments for tool 'echo': at /: must have required property 'message'" },
      ],
      isError: true,
    });
  });
});

describe("guards", () => {
  it("rejects foreign Host and Origin headers with 403 (DNS rebinding)", async () => {
    const { host } = await start();
    const local = `127.0.0.1:${host.port}`;
    const evil = await rawRequest(host.url, {
      headers: { ...MCP_HEADERS, host: "evil.example.com" },
      body: JSON.stringify(INITIALIZE),
    });
    expect(evil.status).toBe(403);
    const evilPort = await rawRequest(host.url, {
      headers: { ...MCP_HEADERS, host: `localhost:${host.port + 1}` },
      body: JSON.stringify(INITIALIZE),
    });
    expect(evilPort.status).toBe(403);
    const evilOrigin = await rawRequest(host.url, {
      headers: { ...MCP_HEADERS, host: local, origin: "http://evil.example.com" },
      body: JSON.stringify(INITIALIZE),
    });
    expect(evilOrigin.status).toBe(403);
    for (const name of [local, `localhost:${host.port}`, `[::1]:${host.port}`]) {
      const fine = await rawRequest(host.url, {
        headers: { ...MCP_HEADERS, host: name, origin: `http://${name}` },
        body: JSON.stringify(INITIALIZE),
      });
      expect({ name, status: fine.status }).toEqual({ name, status: 200 });
    }
  });

  it("takes configured allow-lists instead of the loopback defaults", async () => {
    const { host } = await start({ allowedHosts: ["mcp.internal:8443"], allowedOrigins: ["https://app.example"] });
    const allowed = await rawRequest(host.url, {
      headers: { ...MCP_HEADERS, host: "mcp.internal:8443", origin: "https://app.example" },
      body: JSON.stringify(INITIALIZE),
    });
    expect(allowed.status).toBe(200);
    const loopbackNow = await rawRequest(host.url, { body: JSON.stringify(INITIALIZE) });
    expect(loopbackNow.status).toBe(403);
  });

  it("refuses to bind a non-loopback address without a bearer token", async () => {
    const failure = await serveHttp(createDemoBox().box, { host: "0.0.0.0", env: {} }).catch((error: unknown) => error);
    expect(isProtocolFault(failure)).toBe(true);
    expect(failure).toMatchObject({ kind: "transport", message: expect.stringContaining(DEFAULT_TOKEN_ENV) });
  });

  it("requires the bearer token from the configured variable when bound elsewhere", async () => {
    const { host } = await start({ host: "0.0.0.0", tokenEnv: "MY_MCP_TOKEN", env: { MY_MCP_TOKEN: "s3cret-token" } });
    const url = new URL(`http://127.0.0.1:${host.port}/mcp`);
    const missing = await rawRequest(url, { body: JSON.stringify(INITIALIZE) });
    expect(missing.status).toBe(401);
    expect(missing.headers["www-authenticate"]).toMatch(/^Bearer/);
    const wrong = await rawRequest(url, {
      headers: { ...MCP_HEADERS, authorization: "Bearer s3cret-tokem" },
      body: JSON.stringify(INITIALIZE),
    });
    expect(wrong.status).toBe(401);
    const { client } = await connect(url, { Authorization: "Bearer s3cret-token" });
    await expectStillServing(host, client);
  });

  it("requires a configured token on loopback too", async () => {
    const { host } = await start({ env: { [DEFAULT_TOKEN_ENV]: "loop-token" } });
    expect((await rawRequest(host.url, { body: JSON.stringify(INITIALIZE) })).status).toBe(401);
    const { client } = await connect(host.url, { Authorization: "Bearer loop-token" });
    await expectStillServing(host, client);
  });
});

describe("lifecycle", () => {
  it("answers /healthz without credentials", async () => {
    const { host } = await start({ env: { [DEFAULT_TOKEN_ENV]: "t" } });
    const health = await rawRequest(host.url, { method: "GET", path: "/healthz", headers: {} });
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toEqual({ status: "ok" });
  });

  it("sends keep-alive comments on an idle SSE stream", async () => {
    const { host } = await start({ keepAliveMs: 100 });
    const sessionId = await rawSession(host);
    const received = await new Promise<string>((resolve, reject) => {
      const outgoing = openSse(host, sessionId, (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on("data", () => {
          if ((text.match(/: keepalive/g)?.length ?? 0) < 2) return;
          outgoing.destroy();
          resolve(text);
        });
      });
      outgoing.on("error", reject);
      outgoing.end();
    });
    expect(received.match(/: keepalive/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
  });

  it("expires idle sessions but not ones with an open stream", async () => {
    // Idleness on the test's clock (Date alone is faked; the sweep timer and HTTP are real): a session expires
    // when the test moves the clock past the limit, never because a busy machine paused between two steps.
    jest.useFakeTimers({ doNotFake: [...ALL_BUT_DATE], now: Date.now() });
    const { host } = await start({ idleTimeoutMs: 600 });
    const { client, streamOpen } = await connect(host.url);
    const idle = await rawSession(host);
    expect(host.sessionCount).toBe(2);
    await waitUntil(streamOpen);
    jest.advanceTimersByTime(600);
    await waitUntil(() => host.sessionCount === 1);
    const gone = await rawRequest(host.url, {
      headers: sessionHeaders(idle),
      body: '{"jsonrpc":"2.0","id":3,"method":"ping"}',
    });
    expect(gone.status).toBe(404);
    // A session opened after the client's last word expiring too proves the client outlived the idle limit.
    await rawSession(host);
    jest.advanceTimersByTime(600);
    await waitUntil(() => host.sessionCount === 1);
    await expectStillServing(host, client);
  });

  it("at the session limit, ends the session idle longest to make room for a new one", async () => {
    const { host } = await start({ maxSessions: 2 });
    const first = await rawSession(host);
    const second = await rawSession(host);
    const third = await rawRequest(host.url, { body: JSON.stringify(INITIALIZE) });
    expect(third.status).toBe(200);
    expect(host.sessionCount).toBe(2);
    const ping = '{"jsonrpc":"2.0","id":2,"method":"ping"}';
    expect((await rawRequest(host.url, { headers: sessionHeaders(first), body: ping })).status).toBe(404);
    expect((await rawRequest(host.url, { headers: sessionHeaders(second), body: ping })).status).toBe(200);
  });

  it("refuses a new session with 503 only while every session is busy", async () => {
    const { host } = await start({ maxSessions: 2 });
    const streams = await Promise.all(
      [await rawSession(host), await rawSession(host)].map(
        (id) => new Promise<IncomingMessage>((resolve, reject) => openSse(host, id, resolve).on("error", reject).end()),
      ),
    );
    const third = await rawRequest(host.url, { body: JSON.stringify(INITIALIZE) });
    expect(third.status).toBe(503);
    for (const stream of streams) stream.destroy();
  });

  it("drains in-flight calls on close, then stops", async () => {
    const { host, state } = await start();
    const { client } = await connect(host.url);
    const call = client.callTool({ name: "slow", arguments: { ms: 800, steps: 4 } });
    await waitUntil(() => state.started === 1);
    const closed = host.close({ graceMs: 20_000 });
    // New work is turned away: the listener is closed (or answers 503).
    const refused = await rawRequest(host.url, { body: JSON.stringify(INITIALIZE) }).then(
      (response) => response.status,
      () => "connection refused",
    );
    expect([503, "connection refused"]).toContain(refused);
    expect((await call).content).toEqual([{ type: "text", text: "done after 4 steps" }]);
    await closed;
    expect(state.aborted).toBe(0);
    expect(host.sessionCount).toBe(0);
  });

  it("aborts calls still running at the shutdown deadline", async () => {
    const { host, state } = await start();
    const { client } = await connect(host.url);
    // A call far longer than the test's ceiling: close and the client's answer ending at all is the proof.
    const call = client.callTool({ name: "slow", arguments: { ms: 600_000 } }).catch((error: unknown) => error);
    await waitUntil(() => state.started === 1);
    await host.close({ graceMs: 200 });
    expect(state.aborted).toBe(1);
    // The client is told, instead of waiting out its own timeout.
    expect(await call).toMatchObject({ code: -32000, message: expect.stringContaining("interrupted") });
  });
});

/** Waits for `condition` (named by its source in a hang report); Jest's ceiling is the only deadline. */
async function waitUntil(condition: () => boolean): Promise<void> {
  await waitFor(String(condition), condition, { every: 10 });
}
