/**
 * Server logs through `indusr mcp serve`, in both eras each way. Two mounted
 * servers log `{tag, level}` at debug, info, warning and error during a call
 * (`ctx.mcpReq.log`, so they apply their own era's filter): `modern` speaks
 * 2026-07-28 (its logs belong to the request that asked for a level), `legacy`
 * is a 2025-era stdio server (its logs name no call). A client must get the
 * logs its own call caused, at its own level, and never another client's;
 * logs no call can claim reach every client whose level admits them.
 */
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { FIXTURES, waitFor } from "@indus/testkit";
import { makeSandbox, type Sandbox } from "./support/run-cli";
import { writeConfig } from "./support/servers";
import { startHttpGateway, stdioGatewayTransport, type HttpGateway } from "./support/relay-client";

jest.setTimeout(60_000);

const LOG_LEVEL = "io.modelcontextprotocol/logLevel";
const fixture = join(FIXTURES, "logging-asker.mjs");

let sandbox: Sandbox;
let config: string;
let gateway: HttpGateway;
const open: Client[] = [];
const sessions: StreamableHTTPClientTransport[] = [];

beforeAll(async () => {
  sandbox = makeSandbox();
  config = writeConfig(sandbox.root, {
    modern: { command: process.execPath, args: [fixture] },
    legacy: { command: process.execPath, args: [fixture, "legacy-only"], protocol: "legacy" },
  });
  gateway = await startHttpGateway(sandbox, config, []);
});
afterAll(async () => {
  await gateway.stop();
  sandbox.cleanup();
});
afterEach(async () => {
  // The v2 client does not end its HTTP session on close(): end it, so its level stops counting.
  for (const transport of sessions.splice(0)) await transport.terminateSession().catch(() => undefined);
  for (const client of open.splice(0)) await client.close().catch(() => undefined);
});

type Era = "2025" | "2026-07-28";
interface Logged {
  readonly tag: string;
  readonly level: string;
}

/** A client that records every log message it gets, as `level` of `tag`. */
async function loggingClient(wire: "http" | "stdio", era: Era) {
  const pinned = era === "2026-07-28" ? { versionNegotiation: { mode: { pin: era } } } : {};
  const client = new Client({ name: "logs", version: "1.0.0" }, { capabilities: {}, ...pinned });
  const logs: Logged[] = [];
  client.setNotificationHandler("notifications/message", (notification) => {
    const data = notification.params.data as { tag?: string } | undefined;
    logs.push({ tag: data?.tag ?? "?", level: notification.params.level });
  });
  open.push(client);
  if (wire === "stdio") await client.connect(stdioGatewayTransport(sandbox, config, []));
  else {
    const transport = new StreamableHTTPClientTransport(gateway.url);
    if (era === "2025") sessions.push(transport);
    await client.connect(transport);
  }
  return { client, logs };
}

/** Calls `<server>__<tool>` for `tag`, asking for logs at `level` per request (2026-07-28 only). */
async function call(client: Client, server: string, tool: string, tag: string, level?: string): Promise<void> {
  const params = {
    name: `${server}__${tool}`,
    arguments: { tag },
    ...(level !== undefined && { _meta: { [LOG_LEVEL]: level } }),
  };
  await client.request({ method: "tools/call", params });
}

function levelsOf(logs: readonly Logged[], tag: string): string[] {
  return logs.filter((log) => log.tag === tag).map((log) => log.level);
}

/**
 * Proof that no more logs of earlier calls are on their way to `who`: a later call by `who` to `server`, waited
 * for until its error log (every level admits it) arrives. The server logged the earlier calls before this one,
 * and the gateway relays a server's messages in order.
 */
async function barrier(who: { client: Client; logs: Logged[] }, server: string, tag: string, era: Era) {
  await call(who.client, server, "log", tag, era === "2026-07-28" ? "error" : undefined);
  await waitFor(`${tag}'s error log (the barrier)`, () => levelsOf(who.logs, tag).includes("error"));
}

describe("a 2026-07-28 server's logs", () => {
  test("reach only the 2025-era session whose call caused them, at that session's level", async () => {
    const a = await loggingClient("http", "2025");
    const b = await loggingClient("http", "2025");
    await a.client.setLoggingLevel("warning");
    await b.client.setLoggingLevel("debug");
    await call(a.client, "modern", "log", "A");
    await call(b.client, "modern", "log", "B");
    await waitFor(
      "A's 2 and B's 4 log messages",
      () => levelsOf(a.logs, "A").length === 2 && levelsOf(b.logs, "B").length === 4,
    );
    await barrier(a, "modern", "A-then", "2025");
    await barrier(b, "modern", "B-then", "2025");
    expect(levelsOf(a.logs, "A")).toEqual(["warning", "error"]);
    expect(levelsOf(b.logs, "B")).toEqual(["debug", "info", "warning", "error"]);
    expect(levelsOf(a.logs, "B")).toEqual([]);
    expect(levelsOf(b.logs, "A")).toEqual([]);
  });

  test.each(["http", "stdio"] as const)(
    "reach a 2026-07-28 client over %s at the level its request asked for, and no other client",
    async (wire) => {
      const c = await loggingClient(wire, "2026-07-28");
      const other = await loggingClient("http", "2025");
      await call(c.client, "modern", "log", `C-${wire}`, "info");
      await waitFor(`3 log messages of C-${wire}`, () => levelsOf(c.logs, `C-${wire}`).length === 3);
      await barrier(c, "modern", `C-${wire}-then`, "2026-07-28");
      await barrier(other, "modern", `other-${wire}-then`, "2025");
      expect(levelsOf(c.logs, `C-${wire}`)).toEqual(["info", "warning", "error"]);
      expect(levelsOf(other.logs, `C-${wire}`)).toEqual([]);
    },
  );

  test("a prompts/get's logs reach the client that asked, each era at its own level", async () => {
    const c = await loggingClient("http", "2026-07-28");
    const d = await loggingClient("http", "2025");
    await d.client.setLoggingLevel("error");
    const names = (await c.client.listPrompts()).prompts.map((prompt) => prompt.name);
    const name = names.find((each) => each.includes("modern") && each.includes("logged"));
    expect(name).toBeDefined();
    const ask = (client: Client, tag: string, level?: string) =>
      client.request({
        method: "prompts/get",
        params: { name: name!, arguments: { tag }, ...(level !== undefined && { _meta: { [LOG_LEVEL]: level } }) },
      });
    await ask(c.client, "P26", "warning");
    await ask(d.client, "P25");
    await waitFor(
      "P26's 2 and P25's 1 log messages",
      () => levelsOf(c.logs, "P26").length === 2 && levelsOf(d.logs, "P25").length === 1,
    );
    await barrier(c, "modern", "P26-then", "2026-07-28");
    await barrier(d, "modern", "P25-then", "2025");
    expect(levelsOf(c.logs, "P26")).toEqual(["warning", "error"]);
    expect(levelsOf(d.logs, "P25")).toEqual(["error"]);
    expect(levelsOf(d.logs, "P26")).toEqual([]);
    expect(levelsOf(c.logs, "P25")).toEqual([]);
  });

  test("a 2026-07-28 request that asks for no level gets no logs (the revision's opt-out)", async () => {
    const c = await loggingClient("http", "2026-07-28");
    await call(c.client, "modern", "log", "quiet");
    await barrier(c, "modern", "quiet-then", "2026-07-28");
    expect(levelsOf(c.logs, "quiet")).toEqual([]);
  });

  test("a 2025-era client over stdio gets its call's logs at the level it set", async () => {
    const d = await loggingClient("stdio", "2025");
    await d.client.setLoggingLevel("info");
    await call(d.client, "modern", "log", "D");
    await waitFor("3 log messages of D", () => levelsOf(d.logs, "D").length === 3);
    await barrier(d, "modern", "D-then", "2025");
    expect(levelsOf(d.logs, "D")).toEqual(["info", "warning", "error"]);
  });
});

describe("a 2025-era stdio server's logs (they name no call)", () => {
  test("reach a 2026-07-28 client while its call runs, at the level its request asked for", async () => {
    const c = await loggingClient("http", "2026-07-28");
    await call(c.client, "legacy", "log", "E", "warning");
    await waitFor("2 log messages of E", () => levelsOf(c.logs, "E").length === 2);
    expect(levelsOf(c.logs, "E")).toEqual(["warning", "error"]);
  });

  test("reach a 2026-07-28 client with several calls in flight once, not once per call", async () => {
    const c = await loggingClient("stdio", "2026-07-28");
    // `held` and G each wait at the server for the other to arrive: both are in flight while either logs.
    const held = c.client.request({
      method: "tools/call",
      params: { name: "legacy__log", arguments: { tag: "held", meet: "G" }, _meta: { [LOG_LEVEL]: "info" } },
    });
    await c.client.request({
      method: "tools/call",
      params: { name: "legacy__log", arguments: { tag: "G", meet: "held" }, _meta: { [LOG_LEVEL]: "info" } },
    });
    await held;
    await waitFor("3 log messages of the held call", () => levelsOf(c.logs, "held").length === 3);
    await barrier(c, "legacy", "held-then", "2026-07-28");
    expect(levelsOf(c.logs, "G")).toEqual(["info", "warning", "error"]);
    expect(levelsOf(c.logs, "held")).toEqual(["info", "warning", "error"]);
  });

  test("reach every session by its own level: one that never set a level gets them all", async () => {
    const strict = await loggingClient("http", "2025");
    const open = await loggingClient("http", "2025");
    await strict.client.setLoggingLevel("error");
    await call(open.client, "legacy", "log", "F");
    await waitFor("4 log messages of F", () => levelsOf(open.logs, "F").length === 4);
    await barrier(open, "legacy", "F-then", "2025");
    await barrier(strict, "legacy", "F-then-strict", "2025");
    expect(levelsOf(open.logs, "F")).toEqual(["debug", "info", "warning", "error"]);
    expect(levelsOf(strict.logs, "F")).toEqual(["error"]);
  });
});
