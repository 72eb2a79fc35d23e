// The clients here are the v1 SDK's (@modelcontextprotocol/sdk) on purpose: they stand for the
// 2025-era clients the gateway serves in the wild. v2 clients: modern-era.test.ts, readme-example.test.ts.
import { isProtocolFault } from "@indus/contract";
import type { ToolBox } from "@indus/contract";
import { DEFAULT_HOST_INFO, createProviderHost } from "@indus/provider-host";
import type { RunningProviderHost } from "@indus/provider-host";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolResultSchema,
  ReadResourceResultSchema,
  ToolListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { waitFor } from "@indus/testkit";
import { version } from "../package.json";
import { createDemoBox } from "./fixtures/demo-box.mjs";

interface Pair {
  client: Client;
  running: RunningProviderHost;
}

const open: Pair[] = [];

async function connectPair(box: ToolBox, info?: { name: string; version: string }): Promise<Pair> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const host = createProviderHost(box, info);
  const running = await host.connect(serverSide);
  const client = new Client({ name: "test-client", version: "1.0.0" });
  await client.connect(clientSide);
  const pair = { client, running };
  open.push(pair);
  return pair;
}

afterEach(async () => {
  for (const pair of open.splice(0)) {
    await pair.client.close().catch(() => {});
    await pair.running.cancel().catch(() => {});
  }
});

describe("identity", () => {
  it("advertises indus-provider-host with the package version by default", async () => {
    const { client } = await connectPair(createDemoBox().box);
    expect(DEFAULT_HOST_INFO).toEqual({ name: "indus-provider-host", version });
    expect(client.getServerVersion()).toMatchObject({ name: "indus-provider-host", version });
  });

  it("advertises the given identity and the capabilities the box supports", async () => {
    const { client } = await connectPair(createDemoBox().box, { name: "my-agent", version: "9.9.9" });
    expect(client.getServerVersion()).toMatchObject({ name: "my-agent", version: "9.9.9" });
    expect(client.getServerCapabilities()).toEqual({
      tools: { listChanged: true },
      logging: {},
      resources: { listChanged: true },
      prompts: { listChanged: true },
    });
  });

  it("advertises no resources or prompts for a box without a catalog", async () => {
    const { box } = createDemoBox();
    const bare: ToolBox = { descriptors: () => box.descriptors(), runner: box.runner };
    const { client } = await connectPair(bare);
    expect(client.getServerCapabilities()?.resources).toBeUndefined();
    expect(client.getServerCapabilities()?.prompts).toBeUndefined();
    await expect(client.listResources()).rejects.toThrow();
  });
});

describe("tools/list", () => {
  it("serves each descriptor with its raw JSON Schema and annotations", async () => {
    const { client } = await connectPair(createDemoBox().box);
    const { tools } = await client.listTools();
    const echo = tools.find((tool) => tool.name === "echo");
    expect(echo).toEqual({
      name: "echo",
      title: "Echo",
      description: "Echo a message back.",
      inputSchema: {
        type: "object",
        properties: { message: { type: "string" } },
        required: ["message"],
        additionalProperties: false,
      },
      annotations: { title: "Echo", readOnlyHint: true, openWorldHint: false },
    });
    // 2020-12 keywords survive: no draft-07 re-emission.
    const add = tools.find((tool) => tool.name === "add");
    expect(add?.inputSchema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
  });

  it("gives a schema without a root type the object type MCP requires", async () => {
    const box: ToolBox = {
      descriptors: () => [{ name: "loose", description: "d", parameters: { properties: {} } }],
      runner: { run: async (call) => ({ callId: call.id, isError: false, content: [] }) },
    };
    const { client } = await connectPair(box);
    const { tools } = await client.listTools();
    expect(tools[0]?.inputSchema).toEqual({ type: "object", properties: {} });
  });
  it("republishes a mounted server's task-only tool as a plain one: the endpoint runs the task", async () => {
    const wire = {
      name: "research",
      description: "d",
      inputSchema: { type: "object" },
      execution: { taskSupport: "required" },
    };
    const box: ToolBox = {
      descriptors: () => [{ name: "srv__research", description: "d", parameters: { type: "object" }, wire }],
      runner: {
        run: async (call) => ({ callId: call.id, isError: false, content: [{ type: "text", text: "done" }] }),
      },
    };
    const { client } = await connectPair(box);
    const { tools } = await client.listTools();
    expect(tools[0]).toEqual({ name: "srv__research", description: "d", inputSchema: { type: "object" } });
    // An SDK client refuses to call a task-required tool without a task, which the gateway does not serve.
    await expect(client.callTool({ name: "srv__research", arguments: {} })).resolves.toMatchObject({
      content: [{ type: "text", text: "done" }],
    });
  });
  it("repairs a mounted tool an MCP client would reject, so the rest of the listing survives", async () => {
    const hostile = {
      name: "string_input",
      description: "d",
      inputSchema: { type: "string" },
      annotations: { readOnlyHint: "yes" },
      icons: "not a list",
    };
    const clean = { name: "echo", description: "e", inputSchema: { type: "object", properties: { a: {} } } };
    const box: ToolBox = {
      descriptors: () => [
        { name: "srv__string_input", description: "d", parameters: { type: "object" }, wire: hostile },
        { name: "srv__echo", description: "e", parameters: { type: "object" }, wire: clean },
      ],
      runner: { run: async (call) => ({ callId: call.id, isError: false, content: [] }) },
    };
    const { client } = await connectPair(box);
    const { tools } = await client.listTools();
    expect(tools).toEqual([
      { name: "srv__string_input", description: "d", inputSchema: { type: "object" } },
      { ...clean, name: "srv__echo" },
    ]);
  });
  it("keeps a mounted tool's taskSupport forbidden as sent (true of the gateway too)", async () => {
    const wire = { name: "echo", inputSchema: { type: "object" }, execution: { taskSupport: "forbidden" } };
    const box: ToolBox = {
      descriptors: () => [{ name: "srv__echo", description: "", parameters: { type: "object" }, wire }],
      runner: { run: async (call) => ({ callId: call.id, isError: false, content: [] }) },
    };
    const { client } = await connectPair(box);
    const { tools } = await client.listTools();
    expect(tools[0]).toEqual({ ...wire, name: "srv__echo" });
  });
});

describe("tools/call", () => {
  it("returns text, structured output and isError as the box produced them", async () => {
    const { client } = await connectPair(createDemoBox().box);
    expect(await client.callTool({ name: "echo", arguments: { message: "hi" } })).toEqual({
      content: [{ type: "text", text: "Echo: hi" }],
      isError: false,
    });
    expect(await client.callTool({ name: "add", arguments: { a: 2, b: 3 } })).toEqual({
      content: [{ type: "text", text: "5" }],
      structuredContent: { sum: 5 },
      isError: false,
    });
    expect(await client.callTool({ name: "fail", arguments: {} })).toEqual({
      content: [{ type: "text", text: "this tool always fails" }],
      isError: true,
    });
  });

  it("passes MCP content blocks through and renders other JSON as text", async () => {
    const { client } = await connectPair(createDemoBox().box);
    const image = await client.callTool({ name: "image", arguments: {} });
    expect(image.content).toEqual([{ type: "image", data: expect.any(String), mimeType: "image/png" }]);
    const mixed = await client.callTool({ name: "mixed", arguments: {} });
    expect(mixed.content).toEqual([
      { type: "text", text: "several kinds" },
      { type: "resource", resource: { uri: "demo://r", mimeType: "text/plain", text: "inside" } },
      { type: "text", text: '{"answer":42,"list":[1,2]}' },
    ]);
  });

  it("turns a runner that rejects into a tool error", async () => {
    const { client } = await connectPair(createDemoBox().box);
    const result = await client.callTool({ name: "explode", arguments: {} });
    expect(result).toEqual({ content: [{ type: "text", text: "Tool 'explode' failed: kaboom" }], isError: true });
  });

  it("answers an unknown tool with JSON-RPC InvalidParams", async () => {
    const { client } = await connectPair(createDemoBox().box);
    await expect(client.callTool({ name: "nope", arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("Unknown tool: nope"),
    });
  });

  it("answers arguments that fail the schema with a tool error naming the path", async () => {
    const { client, running } = await connectPair(createDemoBox().box);
    const wrongType = await client.callTool({ name: "echo", arguments: { message: 42 } });
    expect(wrongType.isError).toBe(true);
    expect(wrongType.content).toEqual([
      { type: "text", text: "Invalid arguments for tool 'echo': at /message: must be string" },
    ]);
    const missing = await client.callTool({ name: "add", arguments: { a: 1 } });
    expect(missing.content).toEqual([
      { type: "text", text: "Invalid arguments for tool 'add': at /: must have required property 'b'" },
    ]);
    const nested = await client.callTool({ name: "slow", arguments: { ms: -1 } });
    expect((nested.content as Array<{ text: string }>)[0]?.text).toContain("at /ms: must be >= 0");
    expect(running.inFlight).toBe(0);
  });

  it("can leave argument checking to the box", async () => {
    const { box, state } = createDemoBox();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const running = await createProviderHost(box, undefined, { validateArguments: false }).connect(serverSide);
    const client = new Client({ name: "c", version: "1" });
    await client.connect(clientSide);
    open.push({ client, running });
    const result = await client.callTool({ name: "echo", arguments: { message: 42 } });
    expect(result.content).toEqual([{ type: "text", text: "Echo: 42" }]);
    expect(state.calls).toBe(1);
  });

  it("aborts the running call through its AbortSignal when the client cancels", async () => {
    const { box, state } = createDemoBox();
    const { client, running } = await connectPair(box);
    const controller = new AbortController();
    const call = client.callTool({ name: "slow", arguments: { ms: 30_000, steps: 3 } }, undefined, {
      signal: controller.signal,
    });
    await waitFor("the slow call started", () => state.started === 1, { every: 10 });
    expect(running.inFlight).toBe(1);
    controller.abort("user pressed stop");
    await expect(call).rejects.toThrow();
    await waitFor("the slow call aborted", () => state.aborted === 1, { every: 10 });
    await waitFor("no call in flight", () => running.inFlight === 0, { every: 10 });
    // The session keeps serving.
    expect((await client.callTool({ name: "echo", arguments: { message: "still here" } })).isError).toBe(false);
  });

  it("sends progress with the caller's token only when the caller asked for it", async () => {
    const { client } = await connectPair(createDemoBox().box);
    const reports: Array<{ progress: number; total?: number | undefined; message?: string | undefined }> = [];
    const result = await client.callTool({ name: "slow", arguments: { ms: 60, steps: 3 } }, CallToolResultSchema, {
      onprogress: (progress) => reports.push(progress),
    });
    expect(result.isError).toBe(false);
    expect(reports).toEqual([
      { progress: 1, total: 3, message: "step 1" },
      { progress: 2, total: 3, message: "step 2" },
      { progress: 3, total: 3, message: "step 3" },
    ]);

    const seen: unknown[] = [];
    client.fallbackNotificationHandler = async (notification) => {
      seen.push(notification);
    };
    await client.callTool({ name: "slow", arguments: { ms: 30, steps: 3 } });
    expect(seen.filter((n) => (n as { method: string }).method === "notifications/progress")).toEqual([]);
  });

  it("keeps each client's calls in its own server", async () => {
    const { box } = createDemoBox();
    const first = await connectPair(box);
    const second = await connectPair(box);
    expect(first.running.server).not.toBe(second.running.server);
    const [a, b] = await Promise.all([
      first.client.callTool({ name: "echo", arguments: { message: "one" } }),
      second.client.callTool({ name: "echo", arguments: { message: "two" } }),
    ]);
    expect(a.content).toEqual([{ type: "text", text: "Echo: one" }]);
    expect(b.content).toEqual([{ type: "text", text: "Echo: two" }]);
  });
});

describe("changes", () => {
  it("tells every connected client when the box's tools change", async () => {
    const demo = createDemoBox();
    const first = await connectPair(demo.box);
    const second = await connectPair(demo.box);
    const notified = [0, 0];
    first.client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      notified[0]!++;
    });
    second.client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      notified[1]!++;
    });
    expect((await first.client.callTool({ name: "grow", arguments: {} })).content).toEqual([
      { type: "text", text: "extra_10" },
    ]);
    await waitFor("tools/list_changed at both sessions", () => notified[0] === 1 && notified[1] === 1, {
      every: 10,
    });
    const { tools } = await second.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("extra_10");
  });

  it("forwards catalog changes and unsubscribes when a session ends", async () => {
    const demo = createDemoBox();
    const { client, running } = await connectPair(demo.box);
    let resourceChanges = 0;
    client.setNotificationHandler(ResourceListChangedNotificationSchema, async () => {
      resourceChanges++;
    });
    demo.announceCatalogChange("resources");
    await waitFor("one resources/list_changed", () => resourceChanges === 1, { every: 10 });
    expect(demo.listenerCount()).toBe(1);
    await running.cancel();
    expect(demo.listenerCount()).toBe(0);
  });
});

describe("catalog", () => {
  it("serves resources, templates and prompts through the box's catalog", async () => {
    const { client } = await connectPair(createDemoBox().box);
    expect((await client.listResources()).resources).toEqual([
      { uri: "demo://greeting", name: "greeting", mimeType: "text/plain", description: "A greeting." },
    ]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      { uriTemplate: "demo://items/{id}", name: "item", mimeType: "application/json" },
    ]);
    expect((await client.readResource({ uri: "demo://items/7" })).contents).toEqual([
      { uri: "demo://items/7", mimeType: "application/json", text: '{"id":"7"}' },
    ]);
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(["greet"]);
    expect((await client.getPrompt({ name: "greet", arguments: { who: "Ada" } })).messages).toEqual([
      { role: "user", content: { type: "text", text: "Say hello to Ada" } },
    ]);
  });

  it("maps catalog faults to MCP error codes", async () => {
    const { client } = await connectPair(createDemoBox().box);
    // SEP-2164: the v2 SDK answers "resource not found" (-32002) as -32602 in both eras.
    await expect(client.readResource({ uri: "demo://missing" })).rejects.toMatchObject({
      code: -32602,
      data: { uri: "demo://missing" },
    });
    await expect(client.getPrompt({ name: "missing" })).rejects.toMatchObject({ code: -32602 });
  });
});

describe("a box still filling", () => {
  async function fillingPair(boxReady: Promise<unknown>): Promise<Client> {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const running = await createProviderHost(createDemoBox().box, DEFAULT_HOST_INFO, { boxReady }).connect(serverSide);
    const client = new Client({ name: "test-client", version: "1.0.0" });
    await client.connect(clientSide);
    open.push({ client, running });
    return client;
  }

  it("answers the handshake at once, a listing once the box is ready, and later requests straight away", async () => {
    let ready!: () => void;
    const client = await fillingPair(new Promise<void>((resolve) => (ready = resolve)));
    let listed = false;
    const listing = client.listTools().then((result) => ((listed = true), result));
    await client.ping();
    expect(listed).toBe(false);
    ready();
    expect((await listing).tools.length).toBeGreaterThan(0);
    const [again, called] = await Promise.all([
      client.listTools(),
      client.callTool({ name: "echo", arguments: { message: "hi" } }),
    ]);
    expect(again.tools).toEqual((await listing).tools);
    expect(called.isError).toBeFalsy();
  });

  it("fails each request that waits for a box that failed to fill, and keeps answering ping", async () => {
    const client = await fillingPair(Promise.reject(new Error("mounts failed")));
    await expect(client.listTools()).rejects.toThrow(/mounts failed/);
    await expect(client.listTools()).rejects.toThrow(/mounts failed/);
    await expect(client.ping()).resolves.toEqual({});
  });
});

describe("protocol edges", () => {
  it("accepts logging/setLevel and answers unknown methods with MethodNotFound", async () => {
    const { client } = await connectPair(createDemoBox().box);
    await expect(client.setLoggingLevel("warning")).resolves.toEqual({});
    await expect(
      client.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "who", value: "A" } }),
    ).rejects.toMatchObject({ code: -32601 });
  });

  it("answers malformed params with InvalidParams naming the field", async () => {
    const { client } = await connectPair(createDemoBox().box);
    await expect(
      client.request({ method: "resources/read", params: {} }, ReadResourceResultSchema),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("uri") });
    await expect(
      client.request({ method: "tools/call", params: { arguments: {} } }, CallToolResultSchema),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it("ends waiting() when the client closes and when cancel() runs", async () => {
    const first = await connectPair(createDemoBox().box);
    await first.client.close();
    await expect(first.running.waiting()).resolves.toBeUndefined();
    expect(first.running.closed).toBe(true);

    const second = await connectPair(createDemoBox().box);
    await second.running.cancel();
    await expect(second.running.waiting()).resolves.toBeUndefined();
  });

  it("reports a transport that cannot start as a transport fault", async () => {
    const broken: Transport = {
      start: async () => {
        throw new Error("pipe is gone");
      },
      send: async () => {},
      close: async () => {},
    };
    const failure = await createProviderHost(createDemoBox().box)
      .connect(broken)
      .catch((error: unknown) => error);
    expect(isProtocolFault(failure)).toBe(true);
    expect(failure).toMatchObject({ kind: "transport", message: expect.stringContaining("pipe is gone") });
  });
});
