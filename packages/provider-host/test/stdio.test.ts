// The clients here are the v1 SDK's (@modelcontextprotocol/sdk) on purpose: they stand for the
// 2025-era clients the gateway serves in the wild. v2 clients: modern-era.test.ts, readme-example.test.ts.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { waitFor } from "@indus/testkit";
import { STDIO_HOST, spawnLineChild } from "./support/processes";
import type { LineChild } from "./support/processes";

jest.setTimeout(60_000);

const clients: Client[] = [];
const children: LineChild[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {});
  for (const line of children.splice(0)) {
    if (line.child.exitCode === null) line.child.kill("SIGKILL");
    await line.exited();
  }
});

async function stdioClient(): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [STDIO_HOST], stderr: "pipe" });
  const client = new Client({ name: "stdio-test", version: "1.0.0" });
  await client.connect(transport);
  clients.push(client);
  return client;
}

function lineChild(): LineChild {
  const line = spawnLineChild(STDIO_HOST);
  children.push(line);
  return line;
}

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

async function initialize(line: LineChild): Promise<void> {
  line.send(INITIALIZE);
  await line.next((message) => message.id === 0);
  line.send({ jsonrpc: "2.0", method: "notifications/initialized" });
}

describe("stdio, with the SDK client", () => {
  it("lists and calls the box's tools", async () => {
    const client = await stdioClient();
    expect(client.getServerVersion()).toMatchObject({ name: "demo-host", version: "1.0.0" });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["echo", "add", "image", "mixed", "slow", "grow"]),
    );
    expect(await client.callTool({ name: "echo", arguments: { message: "over a pipe" } })).toEqual({
      content: [{ type: "text", text: "Echo: over a pipe" }],
      isError: false,
    });
    const image = await client.callTool({ name: "image", arguments: {} });
    expect((image.content as Array<{ type: string }>)[0]?.type).toBe("image");
  });

  it("serves several clients at once, one process each", async () => {
    const sessions = await Promise.all([stdioClient(), stdioClient(), stdioClient(), stdioClient()]);
    const results = await Promise.all(
      sessions.flatMap((client, index) =>
        Array.from({ length: 10 }, (_, call) =>
          client.callTool({ name: "echo", arguments: { message: `${index}-${call}` } }),
        ),
      ),
    );
    expect(results.map((result) => (result.content as Array<{ text: string }>)[0]?.text)).toEqual(
      sessions.flatMap((_, index) => Array.from({ length: 10 }, (__, call) => `Echo: ${index}-${call}`)),
    );
  });

  it("carries progress and cancellation across the pipe", async () => {
    const client = await stdioClient();
    const reports: number[] = [];
    // Each report is answered by an advance, so the next one (and the result)
    // leaves only once this one arrived: all three are seen whatever the load.
    await client.callTool({ name: "slow", arguments: { paced: true, steps: 3 } }, undefined, {
      onprogress: (progress) => {
        reports.push(progress.progress);
        void client.callTool({ name: "slow", arguments: { advance: true } });
      },
    });
    // In order, with the caller's token.
    expect(reports).toEqual([1, 2, 3]);

    const controller = new AbortController();
    const call = client.callTool({ name: "slow", arguments: { ms: 60_000, steps: 4 } }, undefined, {
      signal: controller.signal,
    });
    await waitForStat(client, (stats) => stats.started === 2);
    controller.abort();
    await expect(call).rejects.toThrow();
    await waitForStat(client, (stats) => stats.aborted === 1);
  });

  it("announces tools enrolled at runtime", async () => {
    const client = await stdioClient();
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      changes++;
    });
    await client.callTool({ name: "grow", arguments: {} });
    await waitFor("one tools/list_changed at the client", () => changes === 1);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain("extra_10");
  });
});

describe("stdio, at the byte level", () => {
  it("exits cleanly when stdin ends", async () => {
    const line = lineChild();
    await initialize(line);
    line.child.stdin.end();
    await expect(line.exited()).resolves.toEqual({ code: 0, signal: null });
    expect(line.stderr()).toContain("session ended");
  });

  it("exits cleanly, without crashing, when its stdout pipe is closed", async () => {
    const line = lineChild();
    await initialize(line);
    line.child.stdout.destroy();
    // Every answer now hits a closed pipe (EPIPE).
    for (let id = 1; id <= 50; id++) {
      line.send({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "echo", arguments: { message: "x".repeat(4096) } },
      });
    }
    const { code } = await line.exited();
    expect(code).toBe(0);
    expect(line.stderr()).not.toMatch(/UNCAUGHT|UNHANDLED/);
  });

  it("answers lines that are not JSON-RPC with errors and keeps serving", async () => {
    const line = lineChild();
    await initialize(line);
    line.writeRaw("this is not json\n");
    line.writeRaw('{"jsonrpc":"2.0","id":7}\n');
    line.send({ jsonrpc: "2.0", id: 8, method: "no/such/method" });
    line.send({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "nope" } });
    line.send({ jsonrpc: "2.0", id: 10, method: "tools/call", params: { arguments: {} } });
    line.send({ jsonrpc: "2.0", id: 11, method: "tools/call", params: { name: "echo", arguments: { message: "ok" } } });
    const errors = await Promise.all([
      line.next((message) => message.id === null && message.error?.code === -32700),
      line.next((message) => message.id === null && message.error?.code === -32600),
      line.next((message) => message.id === 8),
      line.next((message) => message.id === 9),
      line.next((message) => message.id === 10),
    ]);
    expect(errors.map((message) => message.error?.code)).toEqual([-32700, -32600, -32601, -32602, -32602]);
    expect((await line.next((message) => message.id === 11)).result?.content).toEqual([
      { type: "text", text: "Echo: ok" },
    ]);
    expect(line.child.exitCode).toBeNull();
  });
});

/** Polls the server's `stats` tool until `test` holds; a hang reports the last stats seen. */
async function waitForStat(client: Client, test: (stats: Record<string, number>) => boolean): Promise<void> {
  await waitFor(`server stats where ${String(test)}`, async () => {
    const result = await client.callTool({ name: "stats", arguments: {} });
    const stats = JSON.parse((result.content as Array<{ text: string }>)[0]!.text) as Record<string, number>;
    if (test(stats)) return true;
    throw new Error(`stats: ${JSON.stringify(stats)}`);
  });
}
