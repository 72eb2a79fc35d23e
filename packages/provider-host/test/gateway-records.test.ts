/**
 * What a gateway for teams leaves behind and how it holds up: the audit log
 * (one line per request, caller and trace id, never an argument value or a
 * token), traces to a loopback OTLP/HTTP sink (a span per request in the
 * caller's trace, its context passed on to the server behind the box),
 * Prometheus metrics whose counter matches the calls, per-caller budgets
 * (429), `/readyz`, and 2025-era clients that never end their sessions.
 */
import { readFileSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { serveHttp } from "@indus/provider-host";
import type { HttpHostOptions, HttpProviderHost } from "@indus/provider-host";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createTeamBox } from "./fixtures/team-box.mjs";
import { INITIALIZE, MCP_HEADERS, rawRequest } from "./support/http";
import { ALL_BUT_DATE, freePort } from "@indus/testkit";
import { startIssuer } from "./support/issuer";
import { spawnHttpHost } from "./support/processes";
import type { Issuer } from "./support/issuer";

jest.setTimeout(300_000);

const hosts: HttpProviderHost[] = [];
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "indus-gateway-records-"));
});

afterEach(async () => {
  jest.useRealTimers();
  for (const host of hosts.splice(0)) await host.close({ graceMs: 0 });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function start(options: HttpHostOptions, team = createTeamBox()) {
  const host = await serveHttp(team.box, options);
  hosts.push(host);
  return { host, traces: team.traces };
}

async function connect(host: HttpProviderHost, headers: Record<string, string> = {}, modern = false) {
  const client = new Client(
    { name: "records-test", version: "1" },
    modern ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(host.url, { requestInit: { headers } }));
  return client;
}

function traceparent(): { traceId: string; traceparent: string } {
  const traceId = randomBytes(16).toString("hex");
  return { traceId, traceparent: `00-${traceId}-${randomBytes(8).toString("hex")}-01` };
}

describe("audit log", () => {
  let issuer: Issuer;
  let port: number;

  beforeAll(async () => {
    port = await freePort();
    issuer = await startIssuer([`http://127.0.0.1:${port}/mcp`]);
  });
  afterAll(() => issuer.close());

  it("writes one line per request with caller and trace id, and no argument value or token", async () => {
    const file = join(dir, "audit", "gateway.log");
    const team = createTeamBox();
    const { host } = await start(
      {
        port,
        oauth: { issuer: issuer.issuer, requiredScopes: ["mcp:tools"] },
        auditLog: { file },
      },
      team,
    );
    const token = await issuer.token("full-agent");
    const secret = `argument-value-${randomBytes(8).toString("hex")}`;
    const calls = 25;
    for (const modern of [false, true]) {
      const client = await connect(host, { authorization: `Bearer ${token}` }, modern);
      for (let i = 0; i < calls; i++) {
        await client.callTool({ name: "alpha__echo", arguments: { message: `${secret}-${i}` } });
      }
      await client.getPrompt({ name: "alpha__greet", arguments: { who: secret } });
      await client.close();
    }
    expect((await rawRequest(host.url, { body: JSON.stringify(INITIALIZE) })).status).toBe(401);
    await host.close({ graceMs: 0 });
    const text = readFileSync(file, "utf8");
    expect(text).not.toContain(secret);
    expect(text).not.toContain(token);
    expect(text).not.toContain(token.split(".")[2]!);
    const lines = text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const toolCalls = lines.filter((line) => line["method"] === "tools/call");
    expect(toolCalls).toHaveLength(2 * calls);
    for (const line of toolCalls) {
      expect(line).toMatchObject({
        caller: { clientId: "full-agent", subject: "full-agent" },
        tool: "alpha__echo",
        server: "alpha",
        outcome: "ok",
      });
      expect(line["traceId"]).toMatch(/^[0-9a-f]{32}$/);
      expect(line["argsHash"]).toMatch(/^[0-9a-f]{64}$/);
      expect(typeof line["latencyMs"]).toBe("number");
    }
    expect(new Set(toolCalls.map((line) => line["era"]))).toEqual(new Set(["2025-11-25", "2026-07-28"]));
    // Without tracing, each call behind the box still runs in its request's trace, in a span of its own.
    expect(team.traces).toHaveLength(2 * calls);
    for (const parent of team.traces) expect(parent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(new Set(team.traces.map((parent) => parent?.slice(3, 35)))).toEqual(
      new Set(toolCalls.map((line) => line["traceId"])),
    );
    expect(new Set(team.traces).size).toBe(2 * calls);
    expect(lines.filter((line) => line["method"] === "prompts/get")).toHaveLength(2);
    expect(lines.filter((line) => line["outcome"] === "unauthorized")).toHaveLength(1);
  });

  it("loses no line when the process exits without closing the gateway", async () => {
    const file = join(dir, "abrupt", "gateway.log");
    const calls = 30;
    // initialize, notifications/initialized, then the calls: the host exits as the last answer leaves,
    // its line still waiting for the batch write.
    const gateway = await spawnHttpHost(["team"], {
      PH_GATEWAY: JSON.stringify({ auditLog: { file } }),
      PH_EXIT_AFTER_POSTS: String(2 + calls),
    });
    const client = await connect({ url: gateway.url } as HttpProviderHost);
    for (let i = 0; i < calls; i++) await client.callTool({ name: "alpha__echo", arguments: { message: `m${i}` } });
    expect(await gateway.stop()).toBe(0);
    await client.close().catch(() => {});
    const lines = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.filter((line) => line["method"] === "tools/call" && line["outcome"] === "ok")).toHaveLength(calls);
  });

  it("rotates by size, keeping the newest lines in the live file", async () => {
    const file = join(dir, "rotating.log");
    const { host } = await start({ auditLog: { file, maxBytes: 4096, keep: 2 } });
    const client = await connect(host);
    for (let i = 0; i < 60; i++) await client.callTool({ name: "alpha__echo", arguments: { message: "m" } });
    await client.close();
    await host.close({ graceMs: 0 });
    for (const name of [file, `${file}.1`, `${file}.2`]) {
      const size = readFileSync(name).length;
      expect(size).toBeGreaterThan(0);
      expect(size).toBeLessThanOrEqual(4096);
    }
  });
});

describe("OpenTelemetry", () => {
  let sink: Server;
  const spans: { traceId: string; name: string; parentSpanId?: string }[] = [];

  beforeAll(async () => {
    sink = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as {
          resourceSpans: { scopeSpans: { spans: { traceId: string; name: string; parentSpanId?: string }[] }[] }[];
        };
        for (const resource of body.resourceSpans) for (const scope of resource.scopeSpans) spans.push(...scope.spans);
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => new Promise((resolve) => sink.close(resolve)));

  // A child process: the OTLP exporter loads Node's http lazily, which Jest's module sandbox cannot.
  it("sends a span per request in the caller's trace for 1,000 of 1,000 calls; the box sees the trace", async () => {
    const { port } = sink.address() as { port: number };
    const tracesFile = join(dir, "box-traces.json");
    const gateway = await spawnHttpHost(["team"], {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      PH_TRACES_FILE: tracesFile,
    });
    const host = { url: gateway.url } as HttpProviderHost;
    const clients = await Promise.all([false, true, false, true].map((modern) => connect(host, {}, modern)));
    const sent: string[] = [];
    await Promise.all(
      clients.map(async (client) => {
        for (let i = 0; i < 250; i++) {
          const trace = traceparent();
          sent.push(trace.traceId);
          await client.callTool({
            name: "alpha__echo",
            arguments: { message: "traced" },
            _meta: { traceparent: trace.traceparent },
          });
        }
      }),
    );
    for (const client of clients) await client.close();
    expect(await gateway.stop()).toBe(0);
    expect(sent).toHaveLength(1000);
    const serverSpans = new Set(spans.filter((span) => span.name === "tools/call alpha__echo").map((s) => s.traceId));
    expect(sent.filter((traceId) => serverSpans.has(traceId))).toHaveLength(1000);
    const boxTraces = JSON.parse(readFileSync(tracesFile, "utf8")) as string[];
    const seenByBox = new Set(boxTraces.map((parent) => parent.slice(3, 35)));
    expect(sent.filter((traceId) => seenByBox.has(traceId))).toHaveLength(1000);
    // Each call behind the box is a child span of the gateway's span for the request.
    expect(spans.filter((span) => span.name === "upstream alpha__echo")).toHaveLength(1000);
  });
});

describe("metrics, budgets, readiness", () => {
  it("serves Prometheus text whose request counter matches the calls made", async () => {
    const { host } = await start({ metrics: true });
    const client = await connect(host);
    for (let i = 0; i < 17; i++) await client.callTool({ name: "beta__echo", arguments: { message: "m" } });
    await client.close();
    const text = await (await fetch(new URL("/metrics", host.url))).text();
    const samples = text.split("\n").filter((line) => line !== "" && !line.startsWith("#"));
    for (const line of samples)
      expect(line).toMatch(/^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[^}]*\})? -?[0-9.eE+-]+|NaN|[+-]Inf$/);
    const counter = samples.find((line) =>
      line.startsWith('indus_gateway_requests_total{method="tools/call",server="beta",outcome="ok"}'),
    );
    expect(counter?.split(" ")[1]).toBe("17");
    expect(samples.some((line) => line.startsWith("indus_gateway_sessions_open"))).toBe(true);
    expect(samples.some((line) => line.startsWith("indus_gateway_request_duration_seconds_bucket"))).toBe(true);
  });

  it("answers 429 with Retry-After and a JSON-RPC error once the caller's budget is spent", async () => {
    // The budget refills by `Date` (a request a second): the test holds that clock, so however long the
    // seven requests take on a busy machine, none is refilled in between.
    jest.useFakeTimers({ doNotFake: [...ALL_BUT_DATE], now: Date.now() });
    const { host } = await start({ rateLimit: { perMinute: 60, burst: 5 } });
    const ping = (id: number) =>
      rawRequest(host.url, {
        headers: { ...MCP_HEADERS, "mcp-protocol-version": "2026-07-28", "mcp-method": "ping" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id,
          method: "ping",
          params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } },
        }),
      });
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++) statuses.push((await ping(i)).status);
    expect(statuses.slice(0, 5).every((status) => status !== 429)).toBe(true);
    const limited = await ping(7);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(limited.body)).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32000 } });
  });

  it("answers /readyz 503 until the box is ready, then 200", async () => {
    let ready = false;
    const { host } = await start({ ready: () => ready });
    const readyz = async () => (await fetch(new URL("/readyz", host.url))).status;
    expect(await readyz()).toBe(503);
    ready = true;
    expect(await readyz()).toBe(200);
    expect((await fetch(new URL("/healthz", host.url))).status).toBe(200);
  });

  it("lets a new 2025-era client in after 1,200 abandoned sessions", async () => {
    const { host } = await start({});
    for (let i = 0; i < 1200; i++) {
      expect((await rawRequest(host.url, { body: JSON.stringify(INITIALIZE) })).status).toBe(200);
    }
    expect(host.sessionCount).toBeLessThanOrEqual(1000);
    const client = await connect(host);
    expect((await client.callTool({ name: "alpha__echo", arguments: { message: "in" } })).content).toEqual([
      { type: "text", text: "alpha__echo: in" },
    ]);
    await client.close();
  });
});
