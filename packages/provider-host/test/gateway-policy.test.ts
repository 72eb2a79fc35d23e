/**
 * Per-caller tool sets: an access policy maps each caller's token (client
 * id, subject, groups, scopes) to what it may see and use. `full-agent` sees
 * and calls everything; `alpha-agent` (the policy grants it server `alpha`)
 * lists only alpha's tools, prompts and resources, and every one of 100
 * attempts to call, read, get or complete outside them fails, in both eras
 * and on a stateless host.
 */
import { request } from "node:http";
import { serveHttp } from "@indus/provider-host";
import type { HttpProviderHost } from "@indus/provider-host";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { waitFor } from "@indus/testkit";
import { createTeamBox } from "./fixtures/team-box.mjs";
import type { TeamBox } from "./fixtures/team-box.mjs";
import { INITIALIZE, MCP_HEADERS, rawRequest } from "./support/http";
import { freePort } from "@indus/testkit";
import { startIssuer } from "./support/issuer";
import type { Issuer } from "./support/issuer";

jest.setTimeout(180_000);

const POLICY = {
  rules: [
    { name: "everything", match: { clientId: "full-agent" }, allow: { servers: "*" } },
    { name: "alpha only", match: { clientId: "memory-agent" }, allow: { servers: ["alpha"] } },
  ],
};
const MODES = [
  { era: "2025 sessions", stateless: false, mode: "legacy" },
  { era: "2026-07-28", stateless: false, mode: { pin: "2026-07-28" } },
  { era: "2025 stateless", stateless: true, mode: "legacy" },
] as const;

let issuer: Issuer;
const hosts = new Map<boolean, HttpProviderHost>();

beforeAll(async () => {
  const ports = { stateful: await freePort(), stateless: await freePort() };
  const url = (port: number) => `http://127.0.0.1:${port}/mcp`;
  issuer = await startIssuer([url(ports.stateful), url(ports.stateless)]);
  for (const stateless of [false, true]) {
    const port = stateless ? ports.stateless : ports.stateful;
    const oauth = { issuer: issuer.issuer, requiredScopes: ["mcp:tools"] };
    hosts.set(stateless, await serveHttp(createTeamBox().box, { port, stateless, oauth, access: POLICY }));
  }
});

afterAll(async () => {
  for (const host of hosts.values()) await host.close({ graceMs: 0 });
  await issuer?.close();
});

async function connect(clientId: string, stateless: boolean, mode: (typeof MODES)[number]["mode"]) {
  const host = hosts.get(stateless)!;
  const token = await issuer.token(clientId, { resource: host.url.href });
  const client = new Client({ name: clientId, version: "1" }, { versionNegotiation: { mode } });
  await client.connect(
    new StreamableHTTPClientTransport(host.url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  return client;
}

/** Everything an attempt outside alpha may try: each must fail. */
const OUTSIDE: ((client: Client) => Promise<unknown>)[] = [
  (client) => client.callTool({ name: "beta__echo", arguments: { message: "x" } }),
  (client) => client.callTool({ name: "beta__secret", arguments: {} }),
  (client) => client.readResource({ uri: "indus://beta/doc" }),
  (client) => client.readResource({ uri: "beta://plain" }),
  (client) => client.readResource({ uri: "indus://beta/items/7" }),
  (client) => client.getPrompt({ name: "beta__greet", arguments: { who: "x" } }),
  (client) =>
    client.complete({ ref: { type: "ref/prompt", name: "beta__greet" }, argument: { name: "who", value: "a" } }),
  (client) =>
    client.complete({
      ref: { type: "ref/resource", uri: "indus://beta/items/{id}" },
      argument: { name: "id", value: "1" },
    }),
];

async function failed(attempt: Promise<unknown>): Promise<boolean> {
  try {
    const result = (await attempt) as { isError?: boolean };
    return result.isError === true;
  } catch {
    return true;
  }
}

describe.each(MODES)("access policy, $era", ({ stateless, mode }) => {
  it("lets full-agent list and use everything", async () => {
    const client = await connect("full-agent", stateless, mode);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      "alpha__echo",
      "alpha__add",
      "beta__echo",
      "beta__secret",
    ]);
    expect((await client.listPrompts()).prompts).toHaveLength(2);
    expect((await client.callTool({ name: "beta__secret", arguments: { message: "m" } })).isError).toBeFalsy();
    expect((await client.readResource({ uri: "beta://plain" })).contents).toHaveLength(1);
    await client.close();
  });

  it("shows the alpha-only caller alpha's items alone, and refuses 100 of 100 attempts outside them", async () => {
    const client = await connect("memory-agent", stateless, mode);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(["alpha__echo", "alpha__add"]);
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(["alpha__greet"]);
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(["indus://alpha/doc"]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
    expect((await client.callTool({ name: "alpha__echo", arguments: { message: "ok" } })).content).toEqual([
      { type: "text", text: "alpha__echo: ok" },
    ]);
    let refused = 0;
    for (let attempt = 0; attempt < 100; attempt++) {
      if (await failed(OUTSIDE[attempt % OUTSIDE.length]!(client))) refused++;
    }
    expect(refused).toBe(100);
    await client.close();
  });
});

const LIST_CHANGED = [
  "notifications/tools/list_changed",
  "notifications/prompts/list_changed",
  "notifications/resources/list_changed",
] as const;

/** Changes every list (tools, prompts, resources) on `server`'s side of the box. */
function changeLists(team: TeamBox, server: string): void {
  team.grow(`${server}__later`);
  team.addPrompt(`${server}__later`);
  team.addResource(`indus://${server}/later`);
}

/**
 * Changes beta's lists (outside the alpha-only caller's set) and waits until
 * the gateway has reacted: the caller's view listed its own items to check
 * the change, or the caller already `heard` of it. Then `mark`s the stream
 * and changes alpha's lists. Before the mark the caller must hear nothing;
 * after it, of each list once.
 */
async function changeOutsideThenInside(team: TeamBox, heard: () => boolean, mark: () => void): Promise<void> {
  // The view listed its baseline when its first listener came (the session, the listen stream's handler).
  const listed = { ...team.listings };
  changeLists(team, "beta");
  await waitFor(
    "the caller's view re-listed its prompts and resources after beta's change (or heard of it)",
    () => (team.listings.prompts > listed.prompts && team.listings.resources > listed.resources) || heard(),
  );
  mark();
  changeLists(team, "alpha");
}

describe("what a 2025 session hears outside requests", () => {
  it("tells a caller of changes to its own lists only (tools, prompts, resources)", async () => {
    await hearing(
      async (team, stream) => {
        const heard = () => LIST_CHANGED.some((method) => stream().includes(method));
        await changeOutsideThenInside(team, heard, () => team.log("alpha", "alpha-mark"));
        return LIST_CHANGED;
      },
      (stream) => {
        const [before, after] = stream.split("alpha-mark") as [string, string];
        for (const method of LIST_CHANGED) {
          expect(before).not.toContain(method);
          expect(after.split(method).length - 1).toBe(1);
        }
      },
    );
  });

  it("relays a mounted server's logs only to callers granted that server", async () => {
    await hearing(
      async (team) => {
        team.log("beta", "beta-whispers");
        team.log("alpha", "alpha-speaks");
        return ["alpha-speaks"];
      },
      (stream) => expect(stream).not.toContain("beta-whispers"),
    );
  });
});

describe("what a 2026-07-28 listen stream hears", () => {
  it("holds and hears no resource outside the caller's set", async () => {
    await asModernListener(async (team, client) => {
      const updated: string[] = [];
      client.setNotificationHandler("notifications/resources/updated", (notification) => {
        updated.push(notification.params.uri);
      });
      const subscription = await client.listen({ resourceSubscriptions: ["indus://beta/doc", "indus://alpha/doc"] });
      await waitFor("the box subscribed to indus://alpha/doc", () => team.subscribed.includes("indus://alpha/doc"));
      team.update("indus://beta/doc");
      team.update("indus://alpha/doc");
      await waitFor("the listener told of indus://alpha/doc's update", () => updated.includes("indus://alpha/doc"));
      expect(updated).toEqual(["indus://alpha/doc"]);
      expect(team.subscribed).toEqual(["indus://alpha/doc"]);
      await subscription.close();
      await client.close();
    });
  });
});

describe("what a 2026-07-28 listen stream hears of list changes", () => {
  it("tells a caller of changes to its own lists only (tools, prompts, resources)", async () => {
    await asModernListener(async (team, client) => {
      const heard: string[] = [];
      for (const method of [...LIST_CHANGED, "notifications/resources/updated"] as const) {
        client.setNotificationHandler(method, (notification) => void heard.push(notification.method));
      }
      const subscription = await client.listen({
        toolsListChanged: true,
        promptsListChanged: true,
        resourcesListChanged: true,
        resourceSubscriptions: ["indus://alpha/doc"],
      });
      await waitFor("the box subscribed to indus://alpha/doc", () => team.subscribed.includes("indus://alpha/doc"));
      await changeOutsideThenInside(
        team,
        () => heard.length > 0,
        () => team.update("indus://alpha/doc"),
      );
      await waitFor("the listener told of each list's change", () =>
        LIST_CHANGED.every((method) => heard.includes(method)),
      );
      // The mark came first: nothing was heard of beta's changes before it.
      expect(heard[0]).toBe("notifications/resources/updated");
      await subscription.close();
      await client.close();
      expect([...heard.slice(1)].sort()).toEqual([...LIST_CHANGED].sort());
    });
  });
});

/** Runs `listen` as the alpha-only caller's 2026-07-28 client against a host of its own. */
async function asModernListener(listen: (team: TeamBox, client: Client) => Promise<void>): Promise<void> {
  const port = await freePort();
  const own = await startIssuer([`http://127.0.0.1:${port}/mcp`]);
  const team = createTeamBox();
  const host = await serveHttp(team.box, { port, oauth: { issuer: own.issuer }, access: POLICY });
  try {
    const client = new Client(
      { name: "listener", version: "1" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    const headers = { authorization: `Bearer ${await own.token("memory-agent")}` };
    await client.connect(new StreamableHTTPClientTransport(host.url, { requestInit: { headers } }));
    await listen(team, client);
  } finally {
    await host.close({ graceMs: 0 });
    await own.close();
  }
}

/**
 * Opens a 2025 session as the alpha-only caller with a listen stream, lets
 * `act` make the box speak (it returns what the stream must carry before the
 * host closes) and hands `check` everything the stream carried.
 */
async function hearing(
  act: (team: TeamBox, stream: () => string) => Promise<readonly string[]>,
  check: (stream: string) => void,
): Promise<void> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/mcp`;
  const own = await startIssuer([url]);
  const team = createTeamBox();
  const host = await serveHttp(team.box, { port, oauth: { issuer: own.issuer }, access: POLICY });
  try {
    const headers = { ...MCP_HEADERS, authorization: `Bearer ${await own.token("memory-agent")}` };
    const opened = await rawRequest(host.url, { headers, body: JSON.stringify(INITIALIZE) });
    const session = {
      ...headers,
      "mcp-session-id": String(opened.headers["mcp-session-id"]),
      "mcp-protocol-version": "2025-06-18",
    };
    await rawRequest(host.url, { headers: session, body: '{"jsonrpc":"2.0","method":"notifications/initialized"}' });
    let stream = "";
    const ended = new Promise<void>((resolve, reject) => {
      request(host.url, { method: "GET", headers: { ...session, accept: "text/event-stream" } }, (response) => {
        stream += `HTTP ${response.statusCode}\n`;
        response.setEncoding("utf8").on("data", (chunk: string) => (stream += chunk));
        response.on("end", resolve).on("error", resolve);
      })
        .on("error", reject)
        .end();
    });
    await waitFor("the GET stream answered 200", () => stream.startsWith("HTTP 200"));
    const last = await act(team, () => stream);
    await waitFor(`the stream carried ${last.join(", ")}`, () => last.every((text) => stream.includes(text)));
    // Closing ends the stream after what was sent: what came before the last message is in it.
    await host.close({ graceMs: 0 });
    await ended;
    check(stream);
  } finally {
    await host.close({ graceMs: 0 });
    await own.close();
  }
}
