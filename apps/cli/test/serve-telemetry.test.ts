/**
 * `indusr mcp serve --http` traces and readiness: with the standard
 * `OTEL_EXPORTER_OTLP_ENDPOINT` set, a loopback OTLP/HTTP sink receives a
 * span per request in the caller's trace, and the mounted server sees the
 * same trace id in its request's `_meta`; `/readyz` answers 503 until a slow
 * mount settles, then 200.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { FIXTURES, waitFor } from "@indus/testkit";
import { servedUrl, stopChild } from "./support/relay-client";
import { BIN, makeSandbox, type Sandbox } from "./support/run-cli";
import { writeConfig } from "./support/servers";

jest.setTimeout(180_000);

interface Span {
  readonly traceId: string;
  readonly name: string;
}

let sink: Server;
const spans: Span[] = [];
let sandbox: Sandbox;

beforeAll(async () => {
  sink = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString()) as {
        resourceSpans: { scopeSpans: { spans: Span[] }[] }[];
      };
      for (const resource of body.resourceSpans) for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
  sandbox = makeSandbox();
});

afterAll(async () => {
  sandbox.cleanup();
  await new Promise((resolve) => sink.close(resolve));
});

it("sends each call's span in the caller's trace, passes the trace to the mounted server, and is ready once it settles", async () => {
  const { port } = sink.address() as { port: number };
  const scripted = path.join(FIXTURES, "scripted-server.mjs");
  const config = writeConfig(sandbox.root, {
    fixture: { command: process.execPath, args: [scripted, "name=fixture", "meta-tool=1", "start-delay=3000"] },
  });
  const child = spawn(
    process.execPath,
    // The meta tool is not annotated read-only: --profile survey publishes it.
    [
      BIN,
      "mcp",
      "serve",
      "--http",
      "--port",
      "0",
      "--no-builtins",
      "--boot-wait",
      "0",
      "--profile",
      "survey",
      "--mcp",
      config,
    ],
    {
      cwd: sandbox.cwd,
      env: { ...sandbox.env, OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, OTEL_BSP_SCHEDULE_DELAY: "200" },
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  try {
    const url = await servedUrl(child);
    const readyz = async () => (await fetch(new URL("/readyz", url))).status;
    expect(await readyz()).toBe(503);
    await waitFor("/readyz answering 200", async () => (await readyz()) === 200, { every: 100 });

    const client = new Client(
      { name: "traced", version: "1" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(new StreamableHTTPClientTransport(url));
    const sent: string[] = [];
    const seen: string[] = [];
    for (let i = 0; i < 50; i++) {
      const traceId = randomBytes(16).toString("hex");
      sent.push(traceId);
      const result = await client.callTool({
        name: "fixture__meta",
        arguments: {},
        _meta: { traceparent: `00-${traceId}-${randomBytes(8).toString("hex")}-01` },
      });
      const meta = JSON.parse((result.content as { text: string }[])[0]!.text) as { traceparent?: string };
      seen.push(meta.traceparent?.slice(3, 35) ?? "");
    }
    await client.close();
    expect(seen).toEqual(sent);
    await stopChild(child);
    const traced = new Set(
      spans.filter((span) => span.name === "tools/call fixture__meta").map((span) => span.traceId),
    );
    expect(sent.filter((traceId) => traced.has(traceId))).toHaveLength(50);
  } finally {
    await stopChild(child);
  }
});
