/**
 * A connection the server will soon close for idleness is not reused: the
 * endpoint's HTTP client gives up an idle connection 4 s before the server's
 * announced keep-alive timeout (`Keep-Alive: timeout=N`), so a loaded
 * machine's stalled idle timer does not send a request, a tool call among
 * them, onto a connection the server has just closed (a reset: a failed call).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createHttpFetch } from "../src/http/http-fetch";

interface CountingServer {
  readonly server: Server;
  readonly url: string;
  readonly connections: () => number;
}

/** A server announcing a keep-alive of `seconds`, counting the connections it is sent requests on. */
async function countingServer(seconds: number): Promise<CountingServer> {
  let connections = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => response.end("ok"));
  });
  server.keepAliveTimeout = seconds * 1_000;
  server.on("connection", () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/`, connections: () => connections };
}

/** Two POSTs one after the other (the first's connection back in the pool between them): the connections used. */
async function connectionsForTwoPosts(seconds: number): Promise<number> {
  const { server, url, connections } = await countingServer(seconds);
  const http = createHttpFetch({ bodyTimeoutMs: 0, maxResponseBytes: 1_000_000, onTooLarge: () => undefined });
  try {
    for (let i = 0; i < 2; i += 1) {
      expect(await (await http.fetch(url, { method: "POST", body: "{}" })).text()).toBe("ok");
      // undici puts a connection back in its pool a turn of the event loop after the body ends.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return connections();
  } finally {
    await http.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe("keep-alive against the server's announced timeout", () => {
  it("never reuses a connection to a server announcing 4 s or less", async () => {
    expect(await connectionsForTwoPosts(4)).toBe(2);
  });

  it("reuses a connection to a server announcing more", async () => {
    expect(await connectionsForTwoPosts(60)).toBe(1);
  });
});
