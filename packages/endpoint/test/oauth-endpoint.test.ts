/**
 * OAuth through the endpoint against a real authorization server and MCP
 * server on loopback (`@indus/testkit's fixtures/oauth-server.mjs`): a missing sign-in is an
 * `unauthorized` fault (never an SSE fallback), `signIn` runs the SDK flow
 * through a stand-in browser, sessions reuse and refresh the stored sign-in,
 * and a token revoked mid-session is refreshed and the call retried once.
 */
import { memoryTokenStore, streamableHttpServer, type TokenStore } from "@indus/contract";
import { McpServerEndpoint, signIn } from "@indus/endpoint";
import { UNHURRIED_DEADLINES, browse, startOAuthFixture, type OAuthFixture } from "@indus/testkit";

const REDIRECT = "http://127.0.0.1:7777/callback";
const hint = (server: string) => `sign in with \`login ${server}\``;

let fixture: OAuthFixture;
beforeAll(async () => {
  // Tokens live an hour: no case depends on how much real time passes; expiry is written into the record.
  fixture = await startOAuthFixture({ tokenTtlSeconds: 3600 });
});
afterAll(() => fixture.close());

function session(store: TokenStore, id = "guarded") {
  return new McpServerEndpoint({ ...streamableHttpServer(id, fixture.mcpUrl), ...UNHURRIED_DEADLINES }, undefined, {
    oauth: { store, signInHint: hint },
  });
}

/** Tells the stored sign-in its token has 30 s left: inside the last 60 s, where a session renews first. */
async function nearExpiry(store: TokenStore, id = "guarded"): Promise<void> {
  const record = await store.load(id);
  await store.save(id, { ...record!, expiresAt: Date.now() + 30_000 });
}

async function signedInStore(id = "guarded"): Promise<TokenStore> {
  const store = memoryTokenStore();
  const result = await signIn(streamableHttpServer(id, fixture.mcpUrl), {
    store,
    redirectUrl: REDIRECT,
    authorize: async (url) => (await browse(url, REDIRECT)).searchParams,
  });
  expect(result).toEqual({ signedIn: true, toolCount: 1, serverName: "oauth-protected" });
  return store;
}

it("a server that wants a sign-in faults unauthorized with the hint, without registering or trying SSE", async () => {
  const before = await fixture.stats();
  const endpoint = session(memoryTokenStore(), "nobody");
  const fault = await endpoint.open().catch((error: unknown) => error);
  // One assertion, so a wrong kind prints the fault's message (its reason) too.
  expect(fault).toMatchObject({
    kind: "unauthorized",
    message: 'server "nobody" needs a sign-in: no sign-in is stored; sign in with `login nobody`',
  });
  expect(endpoint.phase).toBe("faulted");
  expect((await fixture.stats()).registrations).toBe(before.registrations);
  await endpoint.close();
});

it("without sign-in support a 401 is still unauthorized, not a legacy SSE fallback", async () => {
  const endpoint = new McpServerEndpoint({ ...streamableHttpServer("plain", fixture.mcpUrl), ...UNHURRIED_DEADLINES });
  const fault = await endpoint.open().catch((error: unknown) => error);
  expect(fault).toMatchObject({ kind: "unauthorized" });
  expect((fault as Error).message).not.toMatch(/SSE/);
  await endpoint.close();
});

it("signs in once; later sessions use the stored sign-in", async () => {
  const store = await signedInStore();
  const endpoint = session(store);
  await endpoint.open();
  const result = await endpoint.invoke("whoami", {});
  expect(result.content).toEqual([{ type: "text", text: "signed in as test-user" }]);
  await endpoint.close();
  const stats = await fixture.stats();
  expect(stats.pkceMethods.every((method) => method === "S256")).toBe(true);
  expect(stats.resources.every((resource) => resource === fixture.mcpUrl)).toBe(true);
});

it("refreshes an access token about to expire before using it", async () => {
  const store = await signedInStore();
  const before = await fixture.stats();
  await nearExpiry(store);
  const endpoint = session(store);
  await endpoint.open();
  await endpoint.invoke("whoami", {});
  await endpoint.close();
  const after = await fixture.stats();
  expect(after.grants.refresh_token ?? 0).toBe((before.grants.refresh_token ?? 0) + 1);
  expect(after.unauthorized).toBe(before.unauthorized);
});

it("a token revoked mid-session is refreshed on the 401 and the call retried once", async () => {
  const store = await signedInStore();
  const endpoint = session(store);
  await endpoint.open();
  await endpoint.invoke("whoami", {});
  const before = await fixture.stats();
  await fixture.rejectSeenTokens();
  const result = await endpoint.invoke("whoami", {});
  expect(result.isError).not.toBe(true);
  const after = await fixture.stats();
  expect(after.unauthorized).toBe(before.unauthorized + 1);
  expect(after.grants.refresh_token ?? 0).toBe((before.grants.refresh_token ?? 0) + 1);
  expect(after.toolCalls).toBe(before.toolCalls + 1);
  await endpoint.close();
});
