/**
 * A connection reset before the server answered (the keep-alive race: a
 * server closes an idle connection just as the client reuses it). A request
 * that only reads goes out once more on a fresh connection and the server
 * stays ready; a tool call is never sent twice.
 */
import { streamableHttpServer } from "@indus/contract";
import { trackEndpoints } from "./helpers/tracked";
import { startStreamableServer, type StreamableTestServer } from "./helpers/http-servers";

jest.setTimeout(60_000);

const make = trackEndpoints();
const servers: StreamableTestServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));

async function resetting(methods: readonly string[]): Promise<StreamableTestServer> {
  const server = await startStreamableServer({ resetFirst: methods });
  servers.push(server);
  return server;
}

const sent = (server: StreamableTestServer, method: string) =>
  server.requests.filter((request) => request.rpcMethod === method).length;

describe("a connection reset before the answer", () => {
  it("sends a listing once more: every tool arrives and the server is ready", async () => {
    const server = await resetting(["tools/list"]);
    const endpoint = make(streamableHttpServer("lister", server.url));
    await endpoint.open();
    const tools = await endpoint.listTools();
    expect(tools.map((tool) => tool.descriptor.name).sort()).toEqual(["lister__echo", "lister__sleep"]);
    expect(endpoint.phase).toBe("ready");
    expect(sent(server, "tools/list")).toBeGreaterThanOrEqual(2);
  });

  it("never sends a tool call twice: that call fails naming the reset, the next one works", async () => {
    const server = await resetting(["tools/call"]);
    const endpoint = make(streamableHttpServer("caller", server.url));
    await endpoint.open();
    const fault = await endpoint.invoke("echo", { message: "once" }).catch((error: unknown) => error);
    expect(fault).toMatchObject({ kind: "tool-error", server: "caller" });
    expect((fault as Error).message).toContain("fetch failed: connection reset (");
    expect(sent(server, "tools/call")).toBe(1);
    await expect(endpoint.invoke("echo", { message: "again" })).resolves.toMatchObject({
      content: [{ type: "text", text: "http-fixture: again" }],
    });
    expect(sent(server, "tools/call")).toBe(2);
  });
});
