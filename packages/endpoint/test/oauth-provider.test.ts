import { Client, StreamableHTTPClientTransport, UnauthorizedError } from "@modelcontextprotocol/client";
import { memoryTokenStore, streamableHttpServer } from "@indus/contract";
import { StoredOAuthProvider, SignInRequired } from "../src/auth/oauth-provider";
import { browse, startOAuthFixture, type OAuthFixture } from "@indus/testkit";

let fixture: OAuthFixture;
beforeAll(async () => {
  fixture = await startOAuthFixture();
});
afterAll(() => fixture.close());

const REDIRECT = "http://127.0.0.1:7777/callback";

async function connect(provider: StoredOAuthProvider, url: string) {
  const client = new Client({ name: "test", version: "1" });
  const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
  await client.connect(transport);
  return { client, transport };
}

it("signs in through the SDK flow and keeps the tokens in the store", async () => {
  const store = memoryTokenStore();
  const config = streamableHttpServer("guarded", fixture.mcpUrl);
  const provider = await StoredOAuthProvider.load(config, {
    store,
    clientName: "indus test",
    redirectUrl: REDIRECT,
    authorize: async (url) => (await browse(url, REDIRECT)).searchParams,
  });
  const transport = new StreamableHTTPClientTransport(new URL(fixture.mcpUrl), { authProvider: provider });
  await expect(new Client({ name: "test", version: "1" }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
  const params = await provider.takeAuthorization();
  expect(params?.get("iss")).toBe(fixture.issuer);
  await transport.finishAuth(params!);

  const record = await store.load("guarded");
  expect(record).toMatchObject({ serverUrl: fixture.mcpUrl, tokens: { token_type: "Bearer" } });
  expect(typeof record?.tokens?.refresh_token).toBe("string");

  // A later session uses the stored sign-in with no user step at all.
  const later = await StoredOAuthProvider.load(config, { store, clientName: "indus test" });
  const { client } = await connect(later, fixture.mcpUrl);
  const tools = await client.listTools();
  expect(tools.tools.map((t) => t.name)).toEqual(["whoami"]);
  await client.close();

  const stats = await fixture.stats();
  expect(stats.registrations).toBe(1);
  expect(stats.resources).toEqual([fixture.mcpUrl]);
  expect(stats.pkceMethods).toEqual(["S256"]);
});

it("in a session, a server with no stored sign-in is SignInRequired, and nothing registers", async () => {
  const before = (await fixture.stats()).registrations;
  const provider = await StoredOAuthProvider.load(streamableHttpServer("fresh", fixture.mcpUrl), {
    store: memoryTokenStore(),
    clientName: "indus test",
  });
  const failure = await connect(provider, fixture.mcpUrl).catch((error: unknown) => error);
  expect(String(failure)).toMatch(/no sign-in is stored/);
  expect(failure instanceof SignInRequired || String((failure as Error).cause ?? failure).includes("sign-in")).toBe(
    true,
  );
  expect((await fixture.stats()).registrations).toBe(before);
});

it("keeps another process's change: each save merges into the record stored now, not the one loaded", async () => {
  const store = memoryTokenStore();
  const config = streamableHttpServer("shared", fixture.mcpUrl);
  await store.save("shared", { serverUrl: fixture.mcpUrl, tokens: { access_token: "old", token_type: "Bearer" } });
  // Two sessions (two processes sharing the file) load the same record.
  const first = await StoredOAuthProvider.load(config, { store, clientName: "indus test" });
  const second = await StoredOAuthProvider.load(config, { store, clientName: "indus test" });
  await first.saveTokens({ access_token: "refreshed", token_type: "Bearer", expires_in: 3600 });
  await second.saveDiscoveryState({ authorizationServerUrl: fixture.issuer });
  const stored = await store.load("shared");
  expect(stored?.tokens?.access_token).toBe("refreshed");
  expect(stored?.discovery).toEqual({ authorizationServerUrl: fixture.issuer });
  expect((await second.tokens({ issuer: fixture.issuer }))?.access_token).toBe("refreshed");
});
