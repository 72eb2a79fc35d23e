/**
 * `oauth.dpop`: sender-constrained tokens (RFC 9449) through the SDK's DPoP
 * support, against a real authorization server (oidc-provider with DPoP) and
 * an MCP server that accepts a bound token only with a valid proof (signed by
 * the bound key, for this request and token, never replayed). A sign-in's key
 * is kept in its token record, so later sessions (and refreshes) in other
 * processes can still use the tokens.
 */
import {
  memoryTokenStore,
  streamableHttpServer,
  type OAuthSettings,
  type ServerConfig,
  type TokenStore,
} from "@indus/contract";
import { McpServerEndpoint, signIn } from "@indus/endpoint";
import {
  FIXTURE_CLIENT_SECRET,
  UNHURRIED_DEADLINES,
  browse,
  startOAuthFixture,
  type OAuthFixture,
} from "@indus/testkit";

const REDIRECT = "http://127.0.0.1:7777/callback";

let fixture: OAuthFixture;
beforeAll(async () => {
  // Tokens live an hour: no case depends on how much real time passes; expiry is written into the record.
  fixture = await startOAuthFixture({ tokenTtlSeconds: 3600 });
});
afterAll(() => fixture.close());

function server(oauth: OAuthSettings): ServerConfig & { transport: "streamable-http" } {
  return { ...streamableHttpServer("bound", fixture.mcpUrl), ...UNHURRIED_DEADLINES, oauth };
}

async function call(config: ServerConfig, store?: TokenStore, env?: Record<string, string>): Promise<string> {
  const endpoint = new McpServerEndpoint(config, undefined, {
    ...(store ? { oauth: { store } } : {}),
    ...(env ? { env } : {}),
  });
  try {
    await endpoint.open();
    const result = await endpoint.invoke("whoami", {});
    return (result.content[0] as { text: string }).text;
  } finally {
    await endpoint.close();
  }
}

it("a sign-in binds its tokens to a key kept in the store; later sessions and refreshes prove possession", async () => {
  const config = server({ dpop: true });
  const store = memoryTokenStore();
  await signIn(config, {
    store,
    redirectUrl: REDIRECT,
    authorize: async (url) => (await browse(url, REDIRECT)).searchParams,
  });
  const record = await store.load("bound");
  expect(record?.tokens?.token_type).toBe("DPoP");
  expect(record?.dpopKey).toMatchObject({ alg: "ES256", thumbprint: expect.any(String) });
  const before = await fixture.stats();

  // A new session loads the key from the store: the bound token is accepted only with its proofs.
  expect(await call(config, store)).toBe("signed in as test-user");
  const after = await fixture.stats();
  expect(after.dpopProofs).toBeGreaterThan(before.dpopProofs);
  expect(after.unauthorized).toBe(before.unauthorized);

  // The server means it: the same token without a proof, or as a bearer token, is refused.
  const token = record?.tokens?.access_token as string;
  const initialize = { jsonrpc: "2.0", id: 1, method: "ping" };
  for (const authorization of [`DPoP ${token}`, `Bearer ${token}`]) {
    const response = await fetch(fixture.mcpUrl, {
      method: "POST",
      headers: { authorization, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify(initialize),
    });
    expect(response.status).toBe(401);
  }

  // With 30 s left (inside the last 60 s) the session refreshes first, with a proof for the same key.
  await store.save("bound", { ...(await store.load("bound"))!, expiresAt: Date.now() + 30_000 });
  expect(await call(config, store)).toBe("signed in as test-user");
  const refreshed = await fixture.stats();
  expect(refreshed.grants.refresh_token).toBe((after.grants.refresh_token ?? 0) + 1);
  expect((await store.load("bound"))?.dpopKey).toEqual(record?.dpopKey);
});

it("a client_credentials grant with dpop gets a bound token and presents it with proofs", async () => {
  const before = await fixture.stats();
  const config = server({ grant: "client_credentials", clientId: "ci-basic", clientSecretEnv: "S", dpop: true });
  expect(await call(config, undefined, { S: FIXTURE_CLIENT_SECRET })).toBe("signed in as ci-basic");
  const after = await fixture.stats();
  expect(after.dpopProofs).toBeGreaterThan(before.dpopProofs);
});

it("without dpop the same servers get plain bearer tokens", async () => {
  const before = await fixture.stats();
  const config = server({ grant: "client_credentials", clientId: "ci-basic", clientSecretEnv: "S" });
  expect(await call(config, undefined, { S: FIXTURE_CLIENT_SECRET })).toBe("signed in as ci-basic");
  expect((await fixture.stats()).dpopProofs).toBe(before.dpopProofs);
});
