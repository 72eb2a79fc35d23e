/**
 * HTTP faults name their cause (refused, reset, TLS), read from the error
 * codes on the cause chain; and HTTP results are capped like stdio lines.
 * The big-result server is raw HTTP so it can answer with any body it likes.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { trackEndpoints } from "./helpers/tracked";
import { startHttpFault } from "./helpers/http-servers";

const make = trackEndpoints();

function streamable(id: string, url: string) {
  return { transport: "streamable-http" as const, id, url, headers: {} };
}

describe("HTTP fault causes", () => {
  it("names a refused connection", async () => {
    const server = await startHttpFault("500");
    await server.close();
    const fault = await make(streamable("refused", server.url))
      .open()
      .catch((error: unknown) => error);
    expect(fault).toMatchObject({ kind: "transport" });
    expect((fault as Error).message).toContain(
      // In protocol "auto" the first request is the era probe, which the SDK names.
      `server "refused": Version negotiation probe failed: fetch failed: connection refused (ECONNREFUSED 127.0.0.1:${server.port})`,
    );
  });

  it("names a reset connection", async () => {
    const server = await startHttpFault("reset");
    try {
      const fault = await make(streamable("reset", server.url))
        .open()
        .catch((error: unknown) => error);
      expect(fault).toMatchObject({ kind: "transport" });
      expect((fault as Error).message).toMatch(/connection reset \((ECONNRESET|UND_ERR_SOCKET)/);
    } finally {
      await server.close();
    }
  });

  it("names a TLS failure (https:// to a plain HTTP server)", async () => {
    const server = await startHttpFault("500");
    try {
      const fault = await make(streamable("tls", server.url.replace("http:", "https:")))
        .open()
        .catch((error: unknown) => error);
      expect(fault).toMatchObject({ kind: "transport" });
      expect((fault as Error).message).toContain("TLS handshake failed (");
    } finally {
      await server.close();
    }
  });
});

/** A Streamable HTTP server (JSON responses) whose `big` tool answers with `bytes` of text, as JSON or SSE. */
async function startBigResultServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      if (req.method !== "POST") {
        res.writeHead(405).end();
        return;
      }
      const message = JSON.parse(body) as { id?: number; method: string; params?: Record<string, unknown> };
      if (message.id === undefined) {
        res.writeHead(202).end();
        return;
      }
      const reply = (result: unknown, sse = false) => {
        const text = JSON.stringify({ jsonrpc: "2.0", id: message.id, result });
        if (sse) res.writeHead(200, { "content-type": "text/event-stream" }).end(`event: message\ndata: ${text}\n\n`);
        else res.writeHead(200, { "content-type": "application/json" }).end(text);
      };
      switch (message.method) {
        case "initialize":
          reply({
            protocolVersion: message.params?.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: "big", version: "1.0.0" },
          });
          return;
        case "tools/list":
          reply({ tools: [{ name: "big", inputSchema: { type: "object" } }] });
          return;
        case "tools/call": {
          const args = message.params?.arguments as { bytes: number; sse?: boolean };
          reply({ content: [{ type: "text", text: "x".repeat(args.bytes) }] }, args.sse === true);
          return;
        }
        default:
          reply({});
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe("HTTP result cap", () => {
  it("fails a JSON result over maxMessageBytes with a protocol fault naming the size; smaller ones pass", async () => {
    const server = await startBigResultServer();
    try {
      const endpoint = make(streamable("big", server.url), undefined, { maxMessageBytes: 1_000_000 });
      await endpoint.open();
      const small = await endpoint.invoke("big", { bytes: 500_000 });
      expect(JSON.stringify(small).length).toBeGreaterThan(500_000);
      const fault = await endpoint.invoke("big", { bytes: 2_000_000 }).catch((error: unknown) => error);
      expect(fault).toMatchObject({ kind: "protocol" });
      expect((fault as Error).message).toBe(
        'server "big": server sent a response over 1000000 bytes (the endpoint\'s maxMessageBytes)',
      );
      expect(endpoint.phase).toBe("ready");
    } finally {
      await server.close();
    }
  });

  it("faults the endpoint promptly when one SSE event passes maxMessageBytes", async () => {
    const server = await startBigResultServer();
    try {
      // The call's deadline lies past the test's ceiling: a fault at all is the endpoint acting on the event.
      const endpoint = make(streamable("big-sse", server.url), undefined, {
        maxMessageBytes: 1_000_000,
        timeouts: { callMs: 600_000 },
      });
      await endpoint.open();
      const ok = await endpoint.invoke("big", { bytes: 400_000, sse: true });
      expect(JSON.stringify(ok).length).toBeGreaterThan(400_000);
      const fault = await endpoint.invoke("big", { bytes: 2_000_000, sse: true }).catch((error: unknown) => error);
      expect(fault).toMatchObject({ kind: "protocol" });
      expect((fault as Error).message).toContain("server sent an SSE event over 1000000 bytes");
      expect(endpoint.phase).toBe("faulted");
    } finally {
      await server.close();
    }
  });
});
