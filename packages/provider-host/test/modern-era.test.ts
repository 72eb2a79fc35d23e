/**
 * The same host behaviour as the 2025-era suites (http, stdio,
 * provider-host), seen by a 2026-07-28 client: the v2 SDK `Client` pinned to
 * the modern era, over Streamable HTTP (in-process host) and stdio (the built
 * host as a child process).
 */
import { serveHttp } from "@indus/provider-host";
import type { HttpHostOptions, HttpProviderHost } from "@indus/provider-host";
import type { RunOptions, ToolBox } from "@indus/contract";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createDemoBox } from "./fixtures/demo-box.mjs";
import { MCP_HEADERS, rawRequest } from "./support/http";
import { waitFor } from "@indus/testkit";
import { STDIO_HOST } from "./support/processes";

jest.setTimeout(60_000);

const MODERN = "2026-07-28";
const hosts: HttpProviderHost[] = [];
const clients: Client[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {});
  for (const host of hosts.splice(0)) await host.close({ graceMs: 0 });
});

function modernClient(): Client {
  const client = new Client(
    { name: "modern-test", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: MODERN } } },
  );
  clients.push(client);
  return client;
}

async function startHttp(options: HttpHostOptions = {}, demo = createDemoBox()) {
  const host = await serveHttp(demo.box, options);
  hosts.push(host);
  return { host, ...demo };
}

async function overHttp(): Promise<Client> {
  const { host } = await startHttp();
  const client = modernClient();
  await client.connect(new StreamableHTTPClientTransport(host.url));
  return client;
}

async function overStdio(): Promise<Client> {
  const client = modernClient();
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [STDIO_HOST], stderr: "pipe" }));
  return client;
}

/** A raw 2026-07-28 request: the `_meta` envelope and the routing headers, no session. */
function modernFrame(method: string, params: Record<string, unknown> = {}) {
  return {
    headers: { ...MCP_HEADERS, "mcp-protocol-version": MODERN, "mcp-method": method },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": MODERN,
          "io.modelcontextprotocol/clientCapabilities": {},
          "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
        },
      },
    }),
  };
}

async function stats(client: Client): Promise<{ started: number; aborted: number }> {
  const result = await client.callTool({ name: "stats", arguments: {} });
  return JSON.parse((result.content as Array<{ text: string }>)[0]!.text) as { started: number; aborted: number };
}

describe.each([
  ["Streamable HTTP", overHttp],
  ["stdio", overStdio],
])("a 2026-07-28 client over %s", (_transport, connect) => {
  it("discovers the host in the modern era, lists and calls its tools", async () => {
    const client = await connect();
    expect(client.getProtocolEra()).toBe("modern");
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    expect(tools).toEqual(expect.arrayContaining(["echo", "add", "slow"]));
    const result = await client.callTool({ name: "echo", arguments: { message: "hi" } });
    expect(result.content).toEqual([{ type: "text", text: "Echo: hi" }]);
  });

  it("answers an unknown tool and malformed params with InvalidParams", async () => {
    const client = await connect();
    await expect(client.callTool({ name: "nope", arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await expect(client.readResource({ uri: 42 as unknown as string })).rejects.toMatchObject({ code: -32602 });
  });

  it("carries progress with the caller's token, and cancellation", async () => {
    const client = await connect();
    const reports: number[] = [];
    // Each report is answered by an advance, so the next one (and the result)
    // leaves only once this one arrived: all three are seen whatever the load.
    await client.callTool(
      { name: "slow", arguments: { paced: true, steps: 3 } },
      {
        onprogress: (p) => {
          reports.push(p.progress);
          void client.callTool({ name: "slow", arguments: { advance: true } });
        },
      },
    );
    expect(reports).toEqual([1, 2, 3]);

    const controller = new AbortController();
    const call = client.callTool({ name: "slow", arguments: { ms: 60_000, steps: 4 } }, { signal: controller.signal });
    await waitFor("two slow calls started at the server", async () => (await stats(client)).started === 2);
    controller.abort();
    await expect(call).rejects.toThrow();
    await waitFor("one call aborted at the server", async () => (await stats(client)).aborted === 1);
  });

  it("announces tools enrolled at runtime on a subscriptions/listen stream", async () => {
    const client = await connect();
    let changes = 0;
    client.setNotificationHandler("notifications/tools/list_changed", () => {
      changes++;
    });
    const subscription = await client.listen({ toolsListChanged: true });
    await client.callTool({ name: "grow", arguments: {} });
    await waitFor("a tools/list_changed on the listen stream", () => changes >= 1);
    await subscription.close();
    expect((await client.listTools({}, { cacheMode: "bypass" })).tools.map((tool) => tool.name)).toContain("extra_10");
  });

  it("serves resources and prompts through the box's catalog", async () => {
    const client = await connect();
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual(["demo://greeting"]);
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(["greet"]);
    const prompt = await client.getPrompt({ name: "greet", arguments: { who: "Ada" } });
    expect(prompt.messages).toEqual([{ role: "user", content: { type: "text", text: "Say hello to Ada" } }]);
  });
});

describe("modern HTTP, on the wire", () => {
  it("keeps no session and stamps list results with ttlMs and a private cache scope", async () => {
    const { host } = await startHttp({ listTtlMs: 5_000 });
    const response = await rawRequest(host.url, modernFrame("tools/list"));
    expect(response.status).toBe(200);
    expect(response.headers["mcp-session-id"]).toBeUndefined();
    const body = JSON.parse(response.body) as { result: { ttlMs: number; cacheScope: string; tools: unknown[] } };
    expect(body.result).toMatchObject({ ttlMs: 5_000, cacheScope: "private" });
    expect(body.result.tools.length).toBeGreaterThan(3);
    expect(host.sessionCount).toBe(0);
  });

  it("serves both eras on one endpoint: a 2025 initialize still opens a session", async () => {
    const { host } = await startHttp();
    const legacy = await rawRequest(host.url, {
      headers: MCP_HEADERS,
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      }),
    });
    expect(legacy.status).toBe(200);
    expect(typeof legacy.headers["mcp-session-id"]).toBe("string");
    expect(host.sessionCount).toBe(1);
    const modern = await rawRequest(host.url, modernFrame("server/discover"));
    expect(modern.status).toBe(200);
    expect(JSON.parse(modern.body).result.supportedVersions).toContain(MODERN);
  });

  it("mints legacy session ids with the replica marker", async () => {
    const { host } = await startHttp({ sessionIdPrefix: "r7." });
    const client = new (await import("@modelcontextprotocol/sdk/client/index.js")).Client({ name: "v1", version: "1" });
    const { StreamableHTTPClientTransport: LegacyTransport } =
      await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
    const transport = new LegacyTransport(host.url);
    await client.connect(transport);
    expect(transport.sessionId).toMatch(/^r7\./);
    await client.close();
  });
});

describe("modern HTTP, Mcp-Param-* headers (SEP-2243)", () => {
  /** A box with one tool whose `region` argument is mirrored into `Mcp-Param-Region`. */
  const regionBox = (): ToolBox => ({
    descriptors: () => [
      {
        name: "route",
        description: "Says which region it was called for.",
        parameters: { type: "object", properties: { region: { type: "string", "x-mcp-header": "Region" } } },
      },
    ],
    runner: {
      run: (call) => Promise.resolve({ callId: call.id, isError: false, content: [{ type: "text", text: "routed" }] }),
    },
  });

  async function callRoute(region: string, header?: string) {
    const host = await serveHttp(regionBox(), {});
    hosts.push(host);
    const frame = modernFrame("tools/call", { name: "route", arguments: { region } });
    const headers = {
      ...frame.headers,
      "mcp-name": "route",
      ...(header !== undefined && { "mcp-param-region": header }),
    };
    const response = await rawRequest(host.url, { ...frame, headers });
    return { status: response.status, body: JSON.parse(response.body) as { error?: { code: number } } };
  }

  it("serves a call whose header matches its argument, plain or Base64", async () => {
    expect((await callRoute("eu-west", "eu-west")).status).toBe(200);
    const encoded = `=?base64?${Buffer.from("ü-north").toString("base64")}?=`;
    expect((await callRoute("ü-north", encoded)).status).toBe(200);
  });

  it("refuses a call whose header is missing, undecodable or disagrees: 400 with -32020", async () => {
    for (const header of [undefined, "us-east", "=?base64?not base64?="]) {
      const { status, body } = await callRoute("eu-west", header);
      expect(status).toBe(400);
      expect(body.error?.code).toBe(-32020);
    }
  });
});

describe("the options a call hands the box's runner, by era", () => {
  /** A box whose one tool records the options each call was run with. */
  function recordingBox(seen: RunOptions[]): ToolBox {
    return {
      descriptors: () => [{ name: "note", description: "Records its run.", parameters: { type: "object" } }],
      runner: {
        run: (call, options) => {
          seen.push(options ?? {});
          return Promise.resolve({ callId: call.id, isError: false, content: [{ type: "text", text: "noted" }] });
        },
      },
    };
  }

  it("a 2026-07-28 call brings its input round and what a task is to it (off: no Tasks extension declared); a 2025 one neither", async () => {
    const seen: RunOptions[] = [];
    const host = await serveHttp(recordingBox(seen), {});
    hosts.push(host);
    const modern = modernClient();
    await modern.connect(new StreamableHTTPClientTransport(host.url));
    await modern.callTool({ name: "note", arguments: {} });
    const legacy = new Client({ name: "legacy-test", version: "1.0.0" });
    clients.push(legacy);
    await legacy.connect(new StreamableHTTPClientTransport(host.url));
    await legacy.callTool({ name: "note", arguments: {} });

    expect(seen).toHaveLength(2);
    const [modernRun, legacyRun] = seen as [RunOptions, RunOptions];
    expect(Object.keys(modernRun)).toEqual(["signal", "relayTo", "logs", "inputRound", "tasks"]);
    expect(modernRun.tasks).toBe("off");
    expect(modernRun.inputRound).toBeDefined();
    expect(modernRun.signal).toBeInstanceOf(AbortSignal);
    expect(Object.keys(legacyRun)).toEqual(["signal", "relayTo", "logs"]);
  });
});
