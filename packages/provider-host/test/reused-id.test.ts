/**
 * A request reusing the id of one still in flight in the same session gets
 * an error at once, and the first is still answered (the SDK's transport
 * would map the id to the second POST and leave the first unanswered).
 * Built HTTP host in a child process.
 */
import { request } from "node:http";
import { messagesOf, openSession, rawRequest } from "./support/http";
import { spawnHttpHost } from "./support/processes";

const slowCall = {
  jsonrpc: "2.0",
  id: 7,
  method: "tools/call",
  params: { name: "slow", arguments: { ms: 10_000, steps: 10 }, _meta: { progressToken: "p" } },
};

/** POST `body`; resolves `started` at its first event, `done` with the whole body. */
function streamingPost(url: URL, headers: Record<string, string>, body: unknown) {
  let onStart: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (onStart = resolve));
  const done = new Promise<string>((resolve, reject) => {
    const outgoing = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers, agent: false },
      (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => {
          text += chunk.toString();
          if (text.includes("notifications/progress")) onStart();
        });
        response.on("end", () => resolve(text));
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(JSON.stringify(body));
  });
  return { started, done };
}

it("a second request with an id in flight gets an error naming the id; the first is still answered", async () => {
  const host = await spawnHttpHost(["demo"]);
  try {
    const headers = await openSession(host.url);
    const first = streamingPost(host.url, headers, slowCall);
    await first.started;
    const echo = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: { message: "x" } } };
    const reused = await rawRequest(host.url, { headers, body: JSON.stringify(echo) });
    expect(reused.status).toBe(400);
    expect(JSON.parse(reused.body)).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: {
        code: -32600,
        message: "Invalid Request: id 7 is already in use by a request in flight in this session",
      },
    });
    const answered = await first.done;
    expect(answered).toMatch(/"id":7/);
    expect(answered).toMatch(/"result"/);
    // The id is free again once answered.
    const again = messagesOf(await rawRequest(host.url, { headers, body: JSON.stringify(echo) }));
    expect(again[0]).toMatchObject({ id: 7, result: { content: [{ type: "text", text: "Echo: x" }] } });
  } finally {
    expect(await host.stop()).toBe(0);
  }
});
