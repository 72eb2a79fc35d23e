/**
 * What a client sends is bounded in depth where it is parsed: a request
 * nested 10,000 levels (over stdio and HTTP, built hosts in child processes)
 * is answered with an error naming where, before any handler or upstream
 * walks it, and the host keeps serving.
 */
import { INITIALIZE, messagesOf, openSession, rawRequest } from "./support/http";
import { STDIO_HOST, spawnHttpHost, spawnLineChild } from "./support/processes";

/** A `tools/call` of `echo` whose arguments nest `levels` deep, as text (no recursive stringify). */
function deepCall(id: string, levels: number): string {
  const deep = `${'{"a":'.repeat(levels)}"x"${"}".repeat(levels)}`;
  return `{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":{"name":"echo","arguments":{"message":${deep}}}}`;
}

const WITNESS = {
  jsonrpc: "2.0",
  id: "witness",
  method: "tools/call",
  params: { name: "echo", arguments: { message: "still here" } },
};
const TOO_DEEP = /^Invalid Request: params nests deeper than 128 levels \(at params\.arguments\.message\.a/;

it("stdio: a request nested 10,000 levels gets an error naming the path, and the host keeps serving", async () => {
  const line = spawnLineChild(STDIO_HOST);
  try {
    line.send({ ...INITIALIZE, id: "init" });
    await line.next((message) => message.id === "init", "the answer to initialize");
    line.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    line.child.stdin.write(`${deepCall("deep", 10_000)}\n`);
    const refused = await line.next((message) => message.id === "deep", "the refusal of the deep request");
    expect(refused.error).toEqual({ code: -32600, message: expect.stringMatching(TOO_DEEP) });
    line.send(WITNESS);
    const witness = await line.next((message) => message.id === "witness", "the witness call's answer");
    expect(witness.result?.content).toEqual([{ type: "text", text: "Echo: still here" }]);
    expect(line.stderr()).not.toMatch(/UNHANDLED|UNCAUGHT/);
    line.child.stdin.end();
    expect(await line.exited()).toEqual({ code: 0, signal: null });
  } finally {
    if (line.child.exitCode === null) line.child.kill("SIGKILL");
  }
});

it("HTTP: a request nested 10,000 levels gets a 400 naming the path, and the host keeps serving", async () => {
  const host = await spawnHttpHost(["demo"]);
  try {
    const headers = await openSession(host.url);
    const refused = await rawRequest(host.url, { headers, body: deepCall("deep", 10_000) });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body)).toMatchObject({
      error: { code: -32600, message: expect.stringMatching(TOO_DEEP) },
    });
    const witness = messagesOf(await rawRequest(host.url, { headers, body: JSON.stringify(WITNESS) }));
    expect(witness[0]?.result?.content).toEqual([{ type: "text", text: "Echo: still here" }]);
    expect(host.stderr()).not.toMatch(/UNHANDLED|UNCAUGHT/);
  } finally {
    expect(await host.stop()).toBe(0);
  }
});
