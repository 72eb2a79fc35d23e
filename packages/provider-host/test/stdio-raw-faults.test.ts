/**
 * A call taken raw (a plain `tools/call` from a client that declared nothing)
 * whose box answers with a fault gets exactly the answer the normal path
 * gives when the runner rejects: a tool error naming the tool, or the mounted
 * server's JSON-RPC error. Real host processes, JSON lines by hand.
 */
import { join } from "node:path";
import { PACKAGE_DIR, spawnLineChild, type LineChild, type RpcMessage } from "./support/processes";

jest.setTimeout(60_000);

const HOST = join(PACKAGE_DIR, "test", "fixtures", "host-raw-faults.mjs");
const children: LineChild[] = [];

afterAll(async () => {
  for (const line of children.splice(0)) {
    line.child.stdin.end();
    await line.exited();
  }
});

/** A 2025-era client on its own host; `asks`: it declares elicitation, so its calls take the normal path. */
async function client(asks: boolean): Promise<LineChild> {
  const line = spawnLineChild(HOST);
  children.push(line);
  const capabilities = asks ? { elicitation: {} } : {};
  const clientInfo = { name: "raw-faults", version: "1" };
  line.send({
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities, clientInfo },
  });
  await line.next((message) => message.id === 0);
  line.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return line;
}

async function call(line: LineChild, id: number, name: string): Promise<RpcMessage> {
  line.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } });
  return line.next((message) => message.id === id, `the answer to ${name}`);
}

it.each([
  ["a plain failure", "plain"],
  ["a failure carrying the server's JSON-RPC error", "rpc"],
])("answers %s on the raw path as the normal path does", async (_what, name) => {
  const [raw, normal] = await Promise.all([client(false), client(true)]);
  const [fast, slow] = await Promise.all([call(raw, 1, name), call(normal, 1, name)]);
  expect(fast).toEqual(slow);
  expect(slow.error ?? slow.result).toBeDefined();
});
