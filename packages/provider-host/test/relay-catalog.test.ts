/**
 * What a gateway's clients send on to the servers behind it, and what comes
 * back, through the optional `GatewayCatalog` members (here a small catalog
 * that records what it is asked): per-session log levels and relayed log
 * messages, completion, resource subscriptions and updates, roots changed.
 * Real v2 clients, over loopback HTTP and stdio, in both eras.
 */
import { serveHttp } from "@indus/provider-host";
import type { HttpProviderHost } from "@indus/provider-host";
import { Client, ProtocolError, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { ClientCapabilities } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { join } from "node:path";
import { createDemoBox } from "./fixtures/demo-box.mjs";
import { createRelayBox, UNLISTED_RESULT } from "./fixtures/relay-box.mjs";
import type { RelayCatalog } from "./fixtures/relay-box.mjs";
import { waitFor } from "@indus/testkit";
import { PACKAGE_DIR } from "./support/processes";

jest.setTimeout(60_000);

const RELAY_STDIO_HOST = join(PACKAGE_DIR, "test", "fixtures", "host-relay-stdio.mjs");
type Era = "legacy" | "modern";

const hosts: HttpProviderHost[] = [];
const clients: Client[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => {});
  for (const host of hosts.splice(0)) await host.close({ graceMs: 0 });
});

interface Seen {
  logs: { level: string; data: unknown }[];
  updates: string[];
}

function newClient(era: Era, capabilities: ClientCapabilities = { roots: { listChanged: true } }) {
  const client = new Client(
    { name: "catalog-test", version: "1.0.0" },
    { capabilities, ...(era === "modern" && { versionNegotiation: { mode: { pin: "2026-07-28" } } }) },
  );
  const seen: Seen = { logs: [], updates: [] };
  client.setNotificationHandler("notifications/message", (notification) => {
    seen.logs.push({ level: notification.params.level, data: notification.params.data });
  });
  client.setNotificationHandler("notifications/resources/updated", (notification) => {
    seen.updates.push(notification.params.uri);
  });
  client.setRequestHandler("roots/list", () => Promise.resolve({ roots: [] }));
  clients.push(client);
  return { client, seen };
}

async function httpGateway(): Promise<{ host: HttpProviderHost } & RelayCatalog> {
  const relay = createRelayBox();
  const host = await serveHttp(relay.box);
  hosts.push(host);
  return { host, ...relay };
}

async function overHttp(host: HttpProviderHost, era: Era) {
  const made = newClient(era);
  await made.client.connect(new StreamableHTTPClientTransport(host.url));
  return made;
}

async function overStdio(era: Era) {
  const made = newClient(era);
  await made.client.connect(
    new StdioClientTransport({ command: process.execPath, args: [RELAY_STDIO_HOST], stderr: "pipe" }),
  );
  return made;
}

function textOf(result: unknown): string {
  return (result as { content: { text?: string }[] }).content[0]?.text ?? "";
}

/** Retries `check`'s expectations until they hold; a hang reports the last failed one (Jest's ceiling is the deadline). */
async function eventually(check: () => void | Promise<void>): Promise<void> {
  await waitFor(`expectations hold: ${String(check)}`, async () => {
    await check();
    return true;
  });
}

describe("2025 era over HTTP: one gateway, several sessions", () => {
  test("each session's log level filters its own messages; the catalog gets the least severe one anyone takes", async () => {
    const { host, state, emitLog } = await httpGateway();
    const quiet = await overHttp(host, "legacy");
    const chatty = await overHttp(host, "legacy");
    const unset = await overHttp(host, "legacy");
    await quiet.client.setLoggingLevel("warning");
    // A session that never set a level takes every message, so the servers must send them all.
    expect(state.levels).toEqual(["debug"]);
    await chatty.client.setLoggingLevel("debug");
    expect(state.levels).toEqual(["debug"]);
    // Server logs reach a session outside any call on its GET stream, which the client opens after connecting.
    await eventually(() => {
      emitLog({ level: "error", data: "probe" });
      expect(quiet.seen.logs.length * chatty.seen.logs.length * unset.seen.logs.length).toBeGreaterThan(0);
    });
    const relayed = (seen: Seen) => seen.logs.filter((log) => log.data !== "probe");

    emitLog({ level: "info", logger: "upstream", data: "at info" });
    emitLog({ level: "error", logger: "upstream", data: "at error" });
    await eventually(() => expect(relayed(unset.seen)).toHaveLength(2));
    await eventually(() => expect(relayed(chatty.seen)).toHaveLength(2));
    expect(relayed(quiet.seen)).toEqual([{ level: "error", data: "at error" }]);

    await (chatty.client.transport as StreamableHTTPClientTransport).terminateSession();
    await (unset.client.transport as StreamableHTTPClientTransport).terminateSession();
    await eventually(() => expect(state.levels).toEqual(["debug", "warning"]));
  });

  test("a subscription is held upstream while any session holds it; updates go only to subscribers", async () => {
    const { host, state, emitUpdate } = await httpGateway();
    const a = await overHttp(host, "legacy");
    const b = await overHttp(host, "legacy");
    const bystander = await overHttp(host, "legacy");
    expect(a.client.getServerCapabilities()?.resources?.subscribe).toBe(true);
    await a.client.subscribeResource({ uri: "test://watched" });
    await b.client.subscribeResource({ uri: "test://watched" });
    expect(state.subscribed).toEqual(["test://watched"]);
    await eventually(() => {
      emitUpdate("test://watched");
      expect(a.seen.updates.length * b.seen.updates.length).toBeGreaterThan(0);
    });
    emitUpdate("test://other");
    // A later update reaching both proves the earlier one was not sent to them (one ordered stream each).
    const heard = [a.seen.updates.length, b.seen.updates.length] as const;
    emitUpdate("test://watched");
    await waitFor(
      "a later update at both subscribers",
      () => a.seen.updates.length > heard[0] && b.seen.updates.length > heard[1],
    );
    expect(new Set([...a.seen.updates, ...b.seen.updates])).toEqual(new Set(["test://watched"]));
    expect(bystander.seen.updates).toEqual([]);

    await a.client.unsubscribeResource({ uri: "test://watched" });
    expect(state.subscribed).toEqual(["test://watched"]);
    await (b.client.transport as StreamableHTTPClientTransport).terminateSession();
    await eventually(() => expect(state.subscribed).toEqual([]));
  });

  test("a subscription the catalog refuses is an error, and nothing is held", async () => {
    const { host, state } = await httpGateway();
    const { client } = await overHttp(host, "legacy");
    await expect(client.subscribeResource({ uri: "test://refused" })).rejects.toBeInstanceOf(ProtocolError);
    expect(state.subscribed).toEqual([]);
  });

  test("a client's roots/list_changed reaches the catalog", async () => {
    const { host, state } = await httpGateway();
    const { client } = await overHttp(host, "legacy");
    await client.sendRootsListChanged();
    await eventually(() => expect(state.rootsChanged).toBe(1));
  });

  test("without the catalog members, no completions and no subscribe are declared", async () => {
    const host = await serveHttp(createDemoBox().box);
    hosts.push(host);
    const { client } = await overHttp(host, "legacy");
    const capabilities = client.getServerCapabilities();
    expect(capabilities?.completions).toBeUndefined();
    expect(capabilities?.resources?.subscribe).toBeUndefined();
  });
});

describe.each(["legacy", "modern"] as const)("%s era", (era) => {
  test.each(["http", "stdio"] as const)("completion/complete is answered by the catalog (%s)", async (wire) => {
    const { client } = wire === "http" ? await overHttp((await httpGateway()).host, era) : await overStdio(era);
    expect(client.getServerCapabilities()?.completions).toEqual({});
    const result = await client.complete({
      ref: { type: "ref/prompt", name: "greet" },
      argument: { name: "who", value: "al" },
    });
    expect(result.completion.values).toEqual(["alpha", "alps"]);
  });
});

describe.each(["legacy", "modern"] as const)("%s era: tools no listing has", (era) => {
  test("go to the catalog's unlisted runner when it names one, else are refused -32602", async () => {
    const { client } = await overHttp((await httpGateway()).host, era);
    const passed = await client.callTool({ name: "unlisted_upstream", arguments: {} });
    expect(passed).toMatchObject(UNLISTED_RESULT);
    await expect(client.callTool({ name: "nobody_has_it", arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });
});

test.each(["legacy", "modern"] as const)(
  "%s era: a prompt get runs for the client that asked (its roots, not another client's)",
  async (era) => {
    // 2026-07-28: the server's question reaches the client as an input_required round of the prompt get.
    const { host } = await httpGateway();
    const asker = async (root: string) => {
      const made = newClient(era);
      made.client.setRequestHandler("roots/list", () => Promise.resolve({ roots: [{ uri: root }] }));
      await made.client.connect(new StreamableHTTPClientTransport(host.url));
      return made.client;
    };
    const [a, b] = [await asker("file:///a"), await asker("file:///b")];
    const textOf = (result: { messages: { content: unknown }[] }) =>
      (result.messages[0]?.content as { text: string }).text;
    const [fromA, fromB] = await Promise.all([
      a.getPrompt({ name: "ask_roots", arguments: {} }),
      b.getPrompt({ name: "ask_roots", arguments: {} }),
    ]);
    expect(JSON.parse(textOf(fromA))).toEqual([{ uri: "file:///a" }]);
    expect(JSON.parse(textOf(fromB))).toEqual([{ uri: "file:///b" }]);
  },
);

describe("2026-07-28 era: subscriptions ride listen streams", () => {
  test("over HTTP, a listen naming a resource holds it upstream and gets its updates until closed", async () => {
    const { host, state, emitUpdate } = await httpGateway();
    const { client, seen } = await overHttp(host, "modern");
    const subscription = await client.listen({ resourceSubscriptions: ["test://watched"] });
    await eventually(() => expect(state.subscribed).toEqual(["test://watched"]));
    emitUpdate("test://other");
    emitUpdate("test://watched");
    await eventually(() => expect(seen.updates).toEqual(["test://watched"]));
    await subscription.close();
    await eventually(() => expect(state.subscribed).toEqual([]));
  });

  test("over stdio, the same", async () => {
    const { client, seen } = await overStdio("modern");
    const stateOf = async () =>
      JSON.parse(textOf(await client.callTool({ name: "catalog-state", arguments: {} }))) as RelayCatalog["state"];
    const subscription = await client.listen({ resourceSubscriptions: ["test://watched"] });
    await eventually(async () => expect((await stateOf()).subscribed).toEqual(["test://watched"]));
    await client.callTool({ name: "emit-update", arguments: { uri: "test://other" } });
    await client.callTool({ name: "emit-update", arguments: { uri: "test://watched" } });
    await eventually(() => expect(seen.updates).toEqual(["test://watched"]));
    await subscription.close();
    await eventually(async () => expect((await stateOf()).subscribed).toEqual([]));
  });
});

describe("2025 era over stdio", () => {
  test("log level, relayed logs, subscription and roots changed", async () => {
    const { client, seen } = await overStdio("legacy");
    const stateOf = async () =>
      JSON.parse(textOf(await client.callTool({ name: "catalog-state", arguments: {} }))) as RelayCatalog["state"];
    await client.setLoggingLevel("warning");
    await client.callTool({ name: "emit-log", arguments: { level: "info" } });
    await client.callTool({ name: "emit-log", arguments: { level: "error" } });
    await eventually(() => expect(seen.logs).toEqual([{ level: "error", data: "at error" }]));
    await client.subscribeResource({ uri: "test://watched" });
    await client.callTool({ name: "emit-update", arguments: { uri: "test://watched" } });
    await eventually(() => expect(seen.updates).toEqual(["test://watched"]));
    await client.sendRootsListChanged();
    await eventually(async () => {
      const state = await stateOf();
      expect(state).toMatchObject({ levels: ["warning"], subscribed: ["test://watched"], rootsChanged: 1 });
    });
  });
});
