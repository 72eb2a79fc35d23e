/**
 * The server half of the full-fidelity gateway, as real v2 clients see it
 * over loopback HTTP and over stdio (the built host as a child process), in
 * both protocol eras: tools and results republished as the server sent them,
 * the calling client as the call's relayTo (elicitation, sampling, roots), and
 * the host's ambient hooks for requests made outside any call.
 */
import { createClientRelay, serveHttp } from "@indus/provider-host";
import type { HttpProviderHost } from "@indus/provider-host";
import type { ClientHostHooks, ToolBox } from "@indus/contract";
import { isProtocolFault } from "@indus/contract";
import { Client, ProtocolError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { ClientCapabilities } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { join } from "node:path";
import { createRelayBox, WIRE_RESULT, WIRE_TOOL } from "./fixtures/relay-box.mjs";
import { waitFor } from "@indus/testkit";
import { PACKAGE_DIR } from "./support/processes";

jest.setTimeout(60_000);

const RELAY_STDIO_HOST = join(PACKAGE_DIR, "test", "fixtures", "host-relay-stdio.mjs");
const MODERN = "2026-07-28";
type Era = "legacy" | "modern";
type Wire = "http" | "stdio";

const hosts: HttpProviderHost[] = [];
const clients: Client[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {});
  for (const host of hosts.splice(0)) await host.close({ graceMs: 0 });
});

const FULL: ClientCapabilities = { elicitation: { form: {}, url: {} }, sampling: {}, roots: { listChanged: true } };

/** A v2 client in `era` that answers what `capabilities` declares, tagging each answer with `tag`; closed after the test. */
function relayClient(era: Era, capabilities: ClientCapabilities, tag = "A"): Client {
  const client = answeringClient(era, capabilities, tag);
  clients.push(client);
  return client;
}

function answeringClient(era: Era, capabilities: ClientCapabilities, tag: string): Client {
  const client = new Client(
    { name: `relay-test-${tag}`, version: "1.0.0" },
    { capabilities, ...(era === "modern" && { versionNegotiation: { mode: { pin: MODERN } } }) },
  );
  if (capabilities.elicitation !== undefined) {
    client.setRequestHandler("elicitation/create", (request) =>
      Promise.resolve(
        request.params.mode === "url"
          ? { action: "accept" as const }
          : { action: "accept" as const, content: { name: `${tag}:${request.params.message}` } },
      ),
    );
  }
  if (capabilities.sampling !== undefined) {
    client.setRequestHandler("sampling/createMessage", () =>
      Promise.resolve({
        role: "assistant" as const,
        content: { type: "text" as const, text: `4 from ${tag}` },
        model: "m",
      }),
    );
  }
  if (capabilities.roots !== undefined) {
    client.setRequestHandler("roots/list", () => Promise.resolve({ roots: [{ uri: `file:///${tag}`, name: tag }] }));
  }
  return client;
}

/** The relay box over loopback HTTP; closed after the test. */
async function httpHost(): Promise<HttpProviderHost> {
  const host = await relayHttpHost();
  hosts.push(host);
  return host;
}

async function relayHttpHost(): Promise<HttpProviderHost> {
  const late: { host?: HttpProviderHost } = {};
  const { box } = createRelayBox({ ambient: () => late.host?.clientHooks });
  const host = await serveHttp(box, {});
  late.host = host;
  return host;
}

/**
 * One client with every capability (tag A) for a whole describe, on its own host: over stdio the host is a
 * Node process loading the package and the SDK, started once per row rather than once per test.
 */
async function rowClient(wire: Wire, era: Era): Promise<{ client: Client; close: () => Promise<void> }> {
  const client = answeringClient(era, FULL, "A");
  const host = wire === "http" ? await relayHttpHost() : undefined;
  await client.connect(
    host
      ? new StreamableHTTPClientTransport(host.url)
      : new StdioClientTransport({ command: process.execPath, args: [RELAY_STDIO_HOST], stderr: "pipe" }),
  );
  const close = async () => {
    await client.close().catch(() => {});
    await host?.close({ graceMs: 0 });
  };
  return { client, close };
}

async function connect(wire: Wire, era: Era, capabilities: ClientCapabilities = FULL, tag = "A"): Promise<Client> {
  const client = relayClient(era, capabilities, tag);
  if (wire === "http") {
    const host = hosts[0] ?? (await httpHost());
    await client.connect(new StreamableHTTPClientTransport(host.url));
  } else {
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: [RELAY_STDIO_HOST], stderr: "pipe" }),
    );
  }
  return client;
}

function textOf(result: unknown): string {
  const content = (result as { content: { type: string; text?: string }[] }).content;
  return content[0]?.text ?? "";
}

const MATRIX: [Wire, Era][] = [
  ["http", "legacy"],
  ["stdio", "legacy"],
  ["http", "modern"],
  ["stdio", "modern"],
];

describe.each(MATRIX)("over %s, %s era", (wire, era) => {
  let row: Awaited<ReturnType<typeof rowClient>>;
  beforeAll(async () => {
    row = await rowClient(wire, era);
  });
  afterAll(() => row?.close());

  test("a tool a server sent is listed exactly as sent, under the box's name", async () => {
    const client = row.client;
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === WIRE_TOOL.name)).toEqual(WIRE_TOOL);
  });

  test("a server's result comes back unchanged: every block type, structured output, _meta", async () => {
    const client = row.client;
    const result = await client.request({ method: "tools/call", params: { name: WIRE_TOOL.name, arguments: {} } });
    // 2026-07-28 results carry the answering server's identity (the SDK's codec stamps it).
    const stamped = { ...WIRE_RESULT._meta, "io.modelcontextprotocol/serverInfo": expect.any(Object) };
    expect(result).toEqual(era === "modern" ? { ...WIRE_RESULT, _meta: stamped } : WIRE_RESULT);
  });

  test("arguments of a republished tool are left to its server (2020-12 keywords)", async () => {
    const client = row.client;
    const args = { name: "x", address: { street: "s", city: "c" }, pair: ["a", 1] };
    const result = await client.request({ method: "tools/call", params: { name: WIRE_TOOL.name, arguments: args } });
    expect(result.isError).toBe(false);
  });

  test("a server's JSON-RPC error reaches the client with its code and data", async () => {
    const client = row.client;
    const failure = await client
      .request({ method: "tools/call", params: { name: "upstream-error", arguments: {} } })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProtocolError);
    expect((failure as ProtocolError).code).toBe(-32602);
    expect((failure as ProtocolError).data).toEqual({ tool: "gone" });
  });

  test("an outcome carrying a server's JSON-RPC error (the fleet's way) is answered as that error", async () => {
    const client = row.client;
    const failure = await client
      .request({ method: "tools/call", params: { name: "upstream-error-outcome", arguments: {} } })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProtocolError);
    expect((failure as ProtocolError).code).toBe(-32021);
    expect((failure as ProtocolError).data).toEqual({ requiredCapabilities: { sampling: {} } });
  });

  test("the call's relayTo has only the hooks the client declared", async () => {
    const client = await connect(wire, era, { elicitation: {} });
    const result = await client.callTool({ name: "hooks", arguments: {} });
    expect(JSON.parse(textOf(result))).toEqual({
      elicit: true,
      createMessage: false,
      listRoots: false,
      elicitModes: ["form"],
    });
    expect(textOf(await client.callTool({ name: "sample", arguments: {} }))).toBe("no sampling");
  });

  test("elicitation, sampling and roots during a call round-trip to the calling client", async () => {
    const client = row.client;
    expect(JSON.parse(textOf(await client.callTool({ name: "ask", arguments: {} })))).toEqual({
      action: "accept",
      content: { name: "A:Your name?" },
    });
    expect(JSON.parse(textOf(await client.callTool({ name: "ask", arguments: { mode: "url" } })))).toEqual({
      action: "accept",
    });
    expect(JSON.parse(textOf(await client.callTool({ name: "sample", arguments: {} })))).toMatchObject({
      role: "assistant",
      content: { type: "text", text: "4 from A" },
    });
    expect(JSON.parse(textOf(await client.callTool({ name: "roots", arguments: {} })))).toEqual([
      { uri: "file:///A", name: "A" },
    ]);
  });

  test("several requests in one call (one round each in 2026-07-28), progress in order", async () => {
    const client = row.client;
    const progress: number[] = [];
    const result = await client.callTool(
      { name: "ask-twice", arguments: {} },
      // The SDK client reports each input round it fulfils as progress of its own.
      { onprogress: (report) => !/^Fulfilling input/.test(report.message ?? "") && progress.push(report.progress) },
    );
    expect(JSON.parse(textOf(result))).toEqual([
      { action: "accept", content: { name: "A:first?" } },
      { action: "accept", content: { name: "A:second?" } },
    ]);
    if (wire === "http") expect(progress).toEqual([1, 2, 3]);
    // The SDK's stdio client drops a report that arrives in the same read as
    // an answer (typescript-sdk#2580), so over stdio only the order is certain.
    else expect(progress).toEqual([1, 2, 3].filter((step) => progress.includes(step)));
  });
});

describe.each(["legacy", "modern"] as const)("two clients at once over http, %s era", (era) => {
  test("each call's questions and progress go to its own client, never the other", async () => {
    await httpHost();
    const a = await connect("http", era, FULL, "A");
    const b = await connect("http", era, FULL, "B");
    const ask = async (client: Client, tag: string) => {
      const progress: number[] = [];
      const result = await client.callTool(
        { name: "ask-twice", arguments: {} },
        {
          onprogress: (report) => !/^Fulfilling input/.test(report.message ?? "") && progress.push(report.progress),
        },
      );
      expect(JSON.parse(textOf(result))).toEqual([
        { action: "accept", content: { name: `${tag}:first?` } },
        { action: "accept", content: { name: `${tag}:second?` } },
      ]);
      // Each caller's own token: exactly its own three reports, never the other's.
      expect(progress).toEqual([1, 2, 3]);
    };
    const calls: Promise<void>[] = [];
    for (let i = 0; i < 20; i++) calls.push(ask(a, "A"), ask(b, "B"));
    await Promise.all(calls);
  });
});

describe.each(["http", "stdio"] as const)("2025 era over %s", (wire) => {
  test("the client's JSON-RPC error reaches the asking server with its code", async () => {
    const client = relayClient("legacy", { elicitation: {} });
    client.setRequestHandler("elicitation/create", () =>
      Promise.reject(new ProtocolError(-32042, "declined by policy")),
    );
    if (wire === "http") await client.connect(new StreamableHTTPClientTransport((await httpHost()).url));
    else {
      await client.connect(
        new StdioClientTransport({ command: process.execPath, args: [RELAY_STDIO_HOST], stderr: "pipe" }),
      );
    }
    const result = await client.callTool({ name: "ask", arguments: {} });
    expect(JSON.parse(textOf(result))).toEqual({ kind: "protocol", rpcCode: -32042, code: -32042 });
  });
});

describe("2025 era over HTTP with JSON answers (jsonResponse)", () => {
  test("a request during a call, which a JSON answer cannot carry, goes on the session's GET stream", async () => {
    const host = await serveHttp(createRelayBox().box, { jsonResponse: true });
    hosts.push(host);
    const client = relayClient("legacy", FULL);
    await client.connect(new StreamableHTTPClientTransport(host.url));
    // The SDK client opens its GET stream just after connecting; before that the hook fails at once.
    await eventually(async () => JSON.parse(textOf(await client.callTool({ name: "ask", arguments: {} }))) as unknown, {
      action: "accept",
      content: { name: "A:Your name?" },
    });
  });
});

describe("2026-07-28 rounds", () => {
  test("a retry naming no waiting call is refused -32602", async () => {
    const client = await connect("http", "modern");
    const failure = await client
      .request({ method: "tools/call", params: { name: "ask", arguments: {}, requestState: "no-such-call" } })
      .catch((error: unknown) => error);
    expect((failure as ProtocolError).code).toBe(-32602);
  });

  test("each round of a call gets a new requestState; an answered one is refused -32602", async () => {
    const client = await connect("http", "modern");
    type Round = { requestState?: string; inputRequests?: Record<string, unknown> };
    const send = (params: Record<string, unknown>) =>
      client.request({ method: "tools/call", params: { name: "ask-twice", arguments: {}, ...params } } as never, {
        allowInputRequired: true,
      }) as Promise<Round>;
    const answers = (round: Round) =>
      Object.fromEntries(Object.keys(round.inputRequests ?? {}).map((key) => [key, { action: "decline" }]));
    const first = await send({});
    const second = await send({ requestState: first.requestState, inputResponses: answers(first) });
    expect(second.requestState).toEqual(expect.any(String));
    expect(second.requestState).not.toBe(first.requestState);
    const replayed = await send({ requestState: first.requestState, inputResponses: answers(first) }).catch(
      (error: unknown) => error,
    );
    expect((replayed as ProtocolError).code).toBe(-32602);
    const done = await send({ requestState: second.requestState, inputResponses: answers(second) });
    expect(JSON.parse(textOf(done))).toEqual([{ action: "decline" }, { action: "decline" }]);
  });

  test("a question keeps the server's own key in the round (inputRequests)", async () => {
    const client = await connect("http", "modern");
    const round = (await client.request(
      { method: "tools/call", params: { name: "ask-keyed", arguments: {} } } as never,
      { allowInputRequired: true },
    )) as { inputRequests?: Record<string, unknown> };
    expect(Object.keys(round.inputRequests ?? {})).toEqual(["user_name"]);
  });

  test("a client without the capability is not asked (the hook is absent)", async () => {
    const client = await connect("stdio", "modern", { sampling: {} });
    expect(textOf(await client.callTool({ name: "ask", arguments: {} }))).toBe("no elicitation");
    expect(JSON.parse(textOf(await client.callTool({ name: "sample", arguments: {} })))).toMatchObject({
      content: { text: "4 from A" },
    });
  });
});

describe("2026-07-28 rounds, host closing", () => {
  test("a call waiting for its client between rounds is ended when the host closes", async () => {
    let settle!: (outcome: string) => void;
    const settled = new Promise<string>((resolve) => (settle = resolve));
    const box: ToolBox = {
      descriptors: () => [{ name: "wait", description: "Asks, then waits.", parameters: { type: "object" } }],
      runner: {
        async run(call, options) {
          const answer = await options?.relayTo
            ?.elicit?.("upstream", { message: "?", requestedSchema: { type: "object", properties: {} } })
            .then(
              () => "answered",
              (error: unknown) => (isProtocolFault(error) ? error.kind : "other"),
            );
          settle(answer ?? "no hook");
          return { callId: call.id, isError: false, content: [] };
        },
      },
    };
    const host = await serveHttp(box);
    const client = relayClient("modern", { elicitation: {} });
    let asked!: () => void;
    const wasAsked = new Promise<void>((resolve) => (asked = resolve));
    client.setRequestHandler("elicitation/create", () => {
      asked();
      return new Promise(() => {});
    });
    await client.connect(new StreamableHTTPClientTransport(host.url));
    void client.callTool({ name: "wait", arguments: {} }).catch(() => {});
    await wasAsked;
    await host.close({ graceMs: 0 });
    expect(await settled).toBe("not-connected");
  });
});

describe("ambient hooks (requests outside any call)", () => {
  test("go to the most recently active session that declared the capability", async () => {
    const host = await httpHost();
    const noRoots = await connect("http", "legacy", { sampling: {} }, "N");
    const first = await connect("http", "legacy", FULL, "A");
    await connect("http", "legacy", FULL, "B");
    const roots = () => host.clientHooks.listRoots!("upstream");
    await eventually(roots, [{ uri: "file:///B", name: "B" }]);
    await first.listTools();
    expect(await roots()).toEqual([{ uri: "file:///A", name: "A" }]);
    await noRoots.listTools();
    const sampled = await host.clientHooks.createMessage!("upstream", { messages: [], maxTokens: 1 });
    expect(sampled).toMatchObject({ content: { text: "4 from N" } });
  });

  test("fail with a not-connected fault naming the capability when no client declared it", async () => {
    const host = await httpHost();
    await connect("http", "legacy", { elicitation: { form: {} } }, "F");
    const failure = await host.clientHooks.listRoots!("upstream").catch((error: unknown) => error);
    expect(isProtocolFault(failure) && failure.kind).toBe("not-connected");
    // What a client without the capability would answer, for the mounted server.
    expect(isProtocolFault(failure) && failure.rpcCode).toBe(-32601);
    expect((failure as Error).message).toMatch(/roots\/list/);
    const url = await host.clientHooks.elicit!("upstream", {
      mode: "url",
      message: "m",
      url: "https://example.invalid",
      elicitationId: "1",
    }).catch((error: unknown) => error);
    expect((url as Error).message).toMatch(/elicitation \(url mode\)/);
  });

  test("a session that ended no longer answers", async () => {
    const host = await httpHost();
    const client = await connect("http", "legacy", FULL, "A");
    await eventually(() => host.clientHooks.listRoots!("upstream"), [{ uri: "file:///A", name: "A" }]);
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    await client.close();
    await waitFor("no session left on the host", () => host.sessionCount === 0);
    await expect(host.clientHooks.listRoots!("upstream")).rejects.toThrow(/no connected client/);
  });

  test("over stdio, the host's client answers", async () => {
    const client = await connect("stdio", "legacy");
    expect(JSON.parse(textOf(await client.callTool({ name: "ambient-roots", arguments: {} })))).toEqual([
      { uri: "file:///A", name: "A" },
    ]);
  });

  test("a 2026-07-28 client is never asked outside a call (that revision has no channel for it)", async () => {
    const overStdio = await connect("stdio", "modern");
    const result = await overStdio.callTool({ name: "ambient-roots", arguments: {} });
    expect(textOf(result)).toMatch(/^not-connected: no connected client of the gateway offers roots\/list/);
    const host = await httpHost();
    await connect("http", "modern", FULL, "M");
    await expect(host.clientHooks.listRoots!("upstream")).rejects.toThrow(/no connected client/);
  });

  test("a relay made first is the one the host answers through", async () => {
    const relay = createClientRelay();
    const hooks: ClientHostHooks = relay.hooks;
    const { box } = createRelayBox();
    const host = await serveHttp(box, { relay });
    hosts.push(host);
    expect(host.clientHooks).toBe(hooks);
    await connect("http", "legacy", FULL, "R");
    await eventually(() => hooks.listRoots!("upstream"), [{ uri: "file:///R", name: "R" }]);
  });
});

/**
 * Polls until `read` gives `expected`: a 2025 HTTP session is reachable
 * outside a call only once its client opened the GET stream, which the SDK
 * client does just after `connect` resolves.
 */
async function eventually<T>(read: () => Promise<T>, expected: T): Promise<void> {
  await waitFor(`a read giving ${JSON.stringify(expected)}`, async () => {
    const last = await read().catch((error: unknown) => error);
    if (JSON.stringify(last) === JSON.stringify(expected)) return true;
    throw new Error(`got ${last instanceof Error ? last.message : JSON.stringify(last)}`);
  });
}
