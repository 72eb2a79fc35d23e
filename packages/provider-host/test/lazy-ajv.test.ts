import { execFileSync } from "node:child_process";
import path from "node:path";

/**
 * The published CommonJS build, in a child process: loading the package and
 * answering a handshake compiles no Ajv (a gateway's first answer waits for
 * none of it); the first call of a tool whose arguments the host checks loads
 * it, and the check still names what is wrong.
 */
const CHILD = `
const { createProviderHost } = require(${JSON.stringify(path.join(__dirname, "..", "dist", "index.cjs"))});
const { InMemoryTransport } = require("@modelcontextprotocol/sdk/inMemory.js");
const ajvLoaded = () => Object.keys(require.cache).some((file) => /[\\\\/]node_modules[\\\\/]ajv[\\\\/]/.test(file));
const box = {
  descriptors: () => [{
    name: "echo",
    description: "Echo a message back.",
    parameters: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
  }],
  runner: { run: async (call) => ({ callId: call.id, isError: false, content: [{ type: "text", text: "echo" }] }) },
};
(async () => {
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  const answers = new Map();
  client.onmessage = (message) => answers.get(message.id)?.(message);
  const ask = (id, method, params) => new Promise((resolve) => {
    answers.set(id, resolve);
    void client.send({ jsonrpc: "2.0", id, method, params });
  });
  const running = await createProviderHost(box).connect(serverSide);
  await client.start();
  const hello = await ask(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "c", version: "1" } });
  await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  const afterHandshake = ajvLoaded();
  const wrong = await ask(2, "tools/call", { name: "echo", arguments: { message: 42 } });
  console.log(JSON.stringify({ answered: hello.result !== undefined, afterHandshake, afterCall: ajvLoaded(), wrong: wrong.result }));
  await running.cancel();
})();
`;

it("loads Ajv on the first checked call, not with the package or for the handshake", () => {
  const out = execFileSync(process.execPath, ["-e", CHILD], { cwd: __dirname, encoding: "utf8" });
  const seen = JSON.parse(out.trim().split("\n").pop() ?? "{}") as {
    answered: boolean;
    afterHandshake: boolean;
    afterCall: boolean;
    wrong: { isError?: boolean; content?: { text?: string }[] };
  };
  expect(seen.answered).toBe(true);
  expect(seen.afterHandshake).toBe(false);
  expect(seen.afterCall).toBe(true);
  expect(seen.wrong.isError).toBe(true);
  expect(seen.wrong.content?.[0]?.text).toMatch(/Invalid arguments for tool 'echo': at \/message: must be string/);
});
