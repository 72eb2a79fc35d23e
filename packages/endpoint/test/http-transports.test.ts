import { createServerEndpoint, type McpServerEndpoint } from "@indus/endpoint";
import { sseServer, streamableHttpServer } from "@indus/contract";
import { startEverythingHttp, type EverythingHttp } from "./helpers/everything-http";
import { startHttpFault, startStreamableServer, type StreamableTestServer } from "./helpers/http-servers";
import { isAlive, waitFor } from "./helpers/processes";

jest.setTimeout(60_000);

const endpoints: McpServerEndpoint[] = [];
function make(...args: Parameters<typeof createServerEndpoint>): McpServerEndpoint {
  const endpoint = createServerEndpoint(...args);
  endpoints.push(endpoint);
  return endpoint;
}
afterEach(() => Promise.all(endpoints.splice(0).map((endpoint) => endpoint.close())));

describe("server-everything over HTTP", () => {
  let streamable: EverythingHttp;
  let sse: EverythingHttp;
  beforeAll(async () => {
    [streamable, sse] = await Promise.all([startEverythingHttp("streamableHttp"), startEverythingHttp("sse")]);
  });
  afterAll(async () => {
    await Promise.all([streamable?.stop(), sse?.stop()]);
    for (const server of [streamable, sse])
      if (server) await waitFor(`server ${server.pid} gone`, () => !isAlive(server.pid));
  });

  it("speaks Streamable HTTP", async () => {
    const endpoint = make(streamableHttpServer("everything", streamable.url));
    await endpoint.open();
    expect(endpoint.transportKind).toBe("streamable-http");
    const tools = await endpoint.listTools();
    expect(tools.some((tool) => tool.descriptor.name === "everything__echo")).toBe(true);
    await expect(endpoint.invoke("echo", { message: "over http" })).resolves.toMatchObject({
      content: [{ type: "text", text: "Echo: over http" }],
      isError: false,
    });
  });

  it("speaks legacy SSE", async () => {
    const endpoint = make(sseServer("legacy", sse.url));
    await endpoint.open();
    expect(endpoint.transportKind).toBe("sse");
    await expect(endpoint.invoke("echo", { message: "over sse" })).resolves.toMatchObject({ isError: false });
  });

  it("falls back to SSE when a streamable-http server rejects the initialize POST with a 4xx", async () => {
    const endpoint = make(streamableHttpServer("fallback", sse.url));
    await endpoint.open();
    expect(endpoint.transportKind).toBe("sse");
    await expect(endpoint.invoke("echo", { message: "fell back" })).resolves.toMatchObject({
      content: [{ type: "text", text: "Echo: fell back" }],
      isError: false,
    });
  });
});

describe("Streamable HTTP sessions", () => {
  let server: StreamableTestServer;
  beforeEach(async () => {
    server = await startStreamableServer();
  });
  afterEach(() => server.close());

  it("sends the configured headers on every request and DELETEs the session on close", async () => {
    const headers = { "x-api-key": "k-123", authorization: "Bearer t0ken" };
    const endpoint = make(streamableHttpServer("headers", server.url, headers));
    await endpoint.open();
    await endpoint.listTools();
    await endpoint.invoke("echo", { message: "h" });
    // The standalone GET stream opens in the background after initialize.
    await waitFor("the endpoint opened its GET stream", () =>
      server.requests.some((request) => request.method === "GET"),
    );
    await endpoint.close();
    const methods = new Set(server.requests.map((request) => request.method));
    expect(methods).toEqual(new Set(["POST", "GET", "DELETE"]));
    for (const request of server.requests) {
      expect(request.headers["x-api-key"]).toBe("k-123");
      expect(request.headers.authorization).toBe("Bearer t0ken");
    }
    expect(server.terminated).toHaveLength(1);
  });

  it("re-initializes once and retries when the server answers 404 for a known session", async () => {
    const endpoint = make(streamableHttpServer("restart", server.url));
    await endpoint.open();
    await expect(endpoint.invoke("echo", { message: "before" })).resolves.toMatchObject({ isError: false });
    server.forgetSessions();
    await expect(endpoint.invoke("echo", { message: "after" })).resolves.toMatchObject({
      content: [{ type: "text", text: "http-fixture: after" }],
      isError: false,
    });
    expect(server.initializations()).toBe(2);
    expect(endpoint.phase).toBe("ready");
    server.forgetSessions();
    await expect(endpoint.listTools()).resolves.toHaveLength(2);
    expect(server.initializations()).toBe(3);
  });

  it("does not cut a response that stays idle for long (no HTTP body timeout by default)", async () => {
    const patient = make(streamableHttpServer("patient", server.url));
    await patient.open();
    await expect(patient.invoke("sleep", { ms: 2_500 })).resolves.toMatchObject({ isError: false });

    // Proof that the knob reaches the HTTP client: with a 500 ms body timeout the same call dies.
    const hasty = make(streamableHttpServer("hasty", server.url), undefined, { httpBodyTimeoutMs: 500 });
    await hasty.open();
    await expect(hasty.invoke("sleep", { ms: 2_500 }, { timeoutMs: 5_000 })).rejects.toMatchObject({ kind: "timeout" });
  });
});

describe("HTTP faults", () => {
  it("401 on a streamable-http server: unauthorized, with no SSE fallback (a sign-in is not a legacy server)", async () => {
    const server = await startHttpFault("401");
    try {
      const endpoint = make(streamableHttpServer("denied", server.url));
      const fault = await endpoint.open().catch((error: unknown) => error);
      expect(fault).toMatchObject({ kind: "unauthorized" });
      expect((fault as Error).message).toMatch(/needs a sign-in: the server answered HTTP 401/);
      expect((fault as Error).message).not.toMatch(/SSE/);
      expect(endpoint.phase).toBe("faulted");
      const sse = make(sseServer("denied-sse", server.url));
      await expect(sse.open()).rejects.toMatchObject({ kind: "unauthorized" });
    } finally {
      await server.close();
    }
  });

  it("500: transport, no SSE fallback, at most one legacy retry on a fresh connection", async () => {
    const server = await startHttpFault("500");
    try {
      const endpoint = make(streamableHttpServer("broken", server.url));
      const fault = await endpoint.open().catch((error: unknown) => error);
      expect(fault).toMatchObject({ kind: "transport" });
      expect((fault as Error).message).toMatch(/500|boom/);
      // The probe, then one 2025-era attempt (a legacy server may fail an unknown method with a 500).
      expect(server.hits()).toBeLessThanOrEqual(2);
    } finally {
      await server.close();
    }
  });

  it("connection reset: transport", async () => {
    const server = await startHttpFault("reset");
    try {
      const endpoint = make(streamableHttpServer("reset", server.url));
      await expect(endpoint.open()).rejects.toMatchObject({ kind: "transport" });
    } finally {
      await server.close();
    }
  });

  it("accepts and never answers: timeout within the startup deadline", async () => {
    const server = await startHttpFault("silent");
    try {
      const endpoint = make({ ...streamableHttpServer("silent", server.url), startupTimeoutMs: 1_500 });
      // The silent server never ends the wait itself: the fault names the startup deadline that did.
      const fault = await endpoint.open().catch((error: unknown) => error);
      expect(fault).toMatchObject({ kind: "timeout" });
      expect((fault as Error).message).toContain("1500 ms");
      const sse = make({ ...sseServer("silent-sse", server.url), startupTimeoutMs: 1_500 });
      await expect(sse.open()).rejects.toMatchObject({ kind: "timeout" });
    } finally {
      await server.close();
    }
  });

  it("nothing listening: transport", async () => {
    const server = await startHttpFault("500");
    const url = server.url;
    await server.close();
    const endpoint = make(streamableHttpServer("refused", url));
    await expect(endpoint.open()).rejects.toMatchObject({ kind: "transport" });
  });
});
