/**
 * The HTTP gateway keeps an idle client connection open for a minute, not
 * Node's 5 s: a server that closes a connection as its client reuses it fails
 * that request with a reset, and clients' pools and proxies keep theirs
 * longer than 5 s. The `Keep-Alive` header tells every client how long.
 */
import { request as httpRequest } from "node:http";
import { serveHttp, type HttpProviderHost } from "@indus/provider-host";
import { createDemoBox } from "./fixtures/demo-box.mjs";

let host: HttpProviderHost | undefined;
afterAll(() => host?.close({ graceMs: 0 }));

function keepAliveOf(url: URL): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(new URL("/healthz", url), { agent: false, headers: { connection: "keep-alive" } });
    request.once("error", reject);
    request.once("response", (response) => {
      response.resume();
      response.once("end", () => resolve(response.headers["keep-alive"]?.toString()));
    });
    request.end();
  });
}

it("tells clients it keeps an idle connection 65 s", async () => {
  host = await serveHttp(createDemoBox().box);
  expect(await keepAliveOf(host.url)).toBe("timeout=65");
});
