/**
 * The client_credentials grant (machine-to-machine) through the endpoint,
 * against a real authorization server (oidc-provider) and MCP server on
 * loopback (`@indus/testkit`'s fixtures/oauth-server.mjs): the secret or key
 * is read from the environment or a file when connecting, the client
 * authenticates as configured (client_secret_basic, client_secret_post,
 * private_key_jwt), the grant is re-run before the token expires, and what is
 * missing or refused is an `unauthorized` fault that names it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { streamableHttpServer, type OAuthSettings, type ServerConfig } from "@indus/contract";
import { McpServerEndpoint } from "@indus/endpoint";
import {
  ALL_BUT_DATE,
  FIXTURE_CLIENT_SECRET,
  UNHURRIED_DEADLINES,
  startOAuthFixture,
  type OAuthFixture,
} from "@indus/testkit";

const TOKEN_TTL_S = 3600;

let fixture: OAuthFixture;
let keyDir: string;
beforeAll(async () => {
  // Tokens live an hour: no case depends on how much real time passes; the renewal case moves the endpoint's clock.
  fixture = await startOAuthFixture({ tokenTtlSeconds: TOKEN_TTL_S });
  keyDir = fs.mkdtempSync(path.join(os.tmpdir(), "indus-cc-"));
});
afterEach(() => jest.useRealTimers());
afterAll(async () => {
  await fixture.close();
  fs.rmSync(keyDir, { recursive: true, force: true });
});

function machine(id: string, oauth: OAuthSettings): ServerConfig {
  return {
    ...streamableHttpServer(id, fixture.mcpUrl),
    ...UNHURRIED_DEADLINES,
    oauth: { grant: "client_credentials", ...oauth },
  };
}

async function whoami(config: ServerConfig, env: Record<string, string>): Promise<string> {
  const endpoint = new McpServerEndpoint(config, undefined, { env });
  try {
    await endpoint.open();
    const result = await endpoint.invoke("whoami", {});
    return (result.content[0] as { text: string }).text;
  } finally {
    await endpoint.close();
  }
}

async function openFault(config: ServerConfig, env: Record<string, string>): Promise<Error & { kind?: string }> {
  const endpoint = new McpServerEndpoint(config, undefined, { env });
  const fault = await endpoint.open().catch((error: unknown) => error as Error & { kind?: string });
  await endpoint.close();
  if (fault === undefined) throw new Error("open succeeded");
  return fault;
}

async function lastClientAuth() {
  const { clientAuth } = await fixture.stats();
  return clientAuth[clientAuth.length - 1];
}

it("client_secret_basic: the secret comes from the named variable and rides in the Authorization header", async () => {
  const config = machine("ci", { clientId: "ci-basic", clientSecretEnv: "CI_SECRET" });
  expect(await whoami(config, { CI_SECRET: FIXTURE_CLIENT_SECRET })).toBe("signed in as ci-basic");
  expect(await lastClientAuth()).toMatchObject({
    clientId: "ci-basic",
    via: "basic-header",
    scope: "mcp:tools",
    resource: fixture.mcpUrl,
  });
});

it("client_secret_post: the secret goes in the request body", async () => {
  const config = machine("ci", { clientId: "ci-post", clientSecretEnv: "CI_SECRET", authMethod: "client_secret_post" });
  expect(await whoami(config, { CI_SECRET: FIXTURE_CLIENT_SECRET })).toBe("signed in as ci-post");
  expect(await lastClientAuth()).toMatchObject({ clientId: "ci-post", via: "post-body" });
});

it("private_key_jwt from a variable: iss and sub are the client id, aud the authorization server, signed with the key", async () => {
  const config = machine("ci", { clientId: "ci-jwt", privateKeyEnv: "CI_KEY", signingAlgorithm: "ES256" });
  expect(await whoami(config, { CI_KEY: fixture.clientKeyPem })).toBe("signed in as ci-jwt");
  const auth = await lastClientAuth();
  expect(auth).toMatchObject({ clientId: "ci-jwt", via: "jwt", alg: "ES256" });
  const claims = auth!.claims as { iss: string; sub: string; aud: string; exp: number; iat: number; jti: string };
  expect(claims.iss).toBe("ci-jwt");
  expect(claims.sub).toBe("ci-jwt");
  // The SDK addresses the assertion to the issuer (RFC 7523bis); oidc-provider checked the signature.
  expect([fixture.issuer, auth!.tokenEndpoint]).toContain(claims.aud);
  expect(claims.exp - claims.iat).toBeLessThanOrEqual(300);
  expect(typeof claims.jti).toBe("string");
});

it("private_key_jwt from a key file (~ expands to HOME)", async () => {
  fs.writeFileSync(path.join(keyDir, "ci.pem"), fixture.clientKeyPem, { mode: 0o600 });
  const config = machine("ci", { clientId: "ci-jwt", privateKeyFile: "~/ci.pem", signingAlgorithm: "ES256" });
  expect(await whoami(config, { HOME: keyDir })).toBe("signed in as ci-jwt");
});

it("a missing secret variable faults unauthorized, naming the variable and the server, before any request", async () => {
  const before = await fixture.stats();
  const fault = await openFault(machine("ci-bot", { clientId: "ci-basic", clientSecretEnv: "CI_BOT_SECRET" }), {});
  expect(fault.kind).toBe("unauthorized");
  expect(fault.message).toBe(
    'server "ci-bot" could not get an access token with its client credentials: environment variable CI_BOT_SECRET (oauth.clientSecretEnv) is not set',
  );
  const after = await fixture.stats();
  expect(after.clientAuth.length).toBe(before.clientAuth.length);
  expect(after.unauthorized).toBe(before.unauthorized);
});

it("a missing key file or a file without a key is named too", async () => {
  const missing = await openFault(
    machine("ci-bot", {
      clientId: "ci-jwt",
      privateKeyFile: path.join(keyDir, "absent.pem"),
      signingAlgorithm: "ES256",
    }),
    {},
  );
  expect(missing.kind).toBe("unauthorized");
  expect(missing.message).toContain(
    `key file ${path.join(keyDir, "absent.pem")} (oauth.privateKeyFile) cannot be read`,
  );
  const garbage = await openFault(
    machine("ci-bot", { clientId: "ci-jwt", privateKeyEnv: "K", signingAlgorithm: "ES256" }),
    {
      K: "not a key",
    },
  );
  expect(garbage.message).toContain("environment variable K (oauth.privateKeyEnv) does not hold a private key");
});

it("a wrong secret or key is refused by the authorization server: unauthorized, no sign-in hint", async () => {
  const secret = await openFault(machine("ci", { clientId: "ci-basic", clientSecretEnv: "S" }), { S: "wrong" });
  expect(secret.kind).toBe("unauthorized");
  expect(secret.message).toMatch(
    /^server "ci" could not get an access token with its client credentials: the authorization server refused: /,
  );
  const { privateKey } = await import("node:crypto").then((crypto) =>
    crypto.generateKeyPairSync("ec", { namedCurve: "P-256" }),
  );
  const otherKey = privateKey.export({ format: "pem", type: "pkcs8" }).toString();
  const key = await openFault(machine("ci", { clientId: "ci-jwt", privateKeyEnv: "K", signingAlgorithm: "ES256" }), {
    K: otherKey,
  });
  expect(key.kind).toBe("unauthorized");
  expect(key.message).toMatch(/the authorization server refused: /);
});

it("credentials bound to an issuer never go to another authorization server", async () => {
  const before = await fixture.stats();
  const fault = await openFault(
    machine("ci", { clientId: "ci-basic", clientSecretEnv: "S", issuer: "https://auth.elsewhere.example" }),
    { S: FIXTURE_CLIENT_SECRET },
  );
  expect(fault.kind).toBe("unauthorized");
  expect((await fixture.stats()).clientAuth.length).toBe(before.clientAuth.length);
  const bound = machine("ci", { clientId: "ci-basic", clientSecretEnv: "S", issuer: fixture.issuer });
  expect(await whoami(bound, { S: FIXTURE_CLIENT_SECRET })).toBe("signed in as ci-basic");
});

it("re-runs the grant before the token expires, so no call meets a 401", async () => {
  // The grant's clock (Date.now, read when the endpoint opens) is the test's; the issuer keeps real time.
  jest.useFakeTimers({ doNotFake: [...ALL_BUT_DATE], now: Date.now() });
  const endpoint = new McpServerEndpoint(machine("ci", { clientId: "ci-basic", clientSecretEnv: "S" }), undefined, {
    env: { S: FIXTURE_CLIENT_SECRET },
  });
  await endpoint.open();
  await endpoint.invoke("whoami", {});
  const before = await fixture.stats();
  // 30 s left (inside the last 60 s): the next request runs the grant first. The issuer still takes the old token.
  jest.setSystemTime(Date.now() + TOKEN_TTL_S * 1000 - 30_000);
  await endpoint.invoke("whoami", {});
  const after = await fixture.stats();
  await endpoint.close();
  jest.useRealTimers();
  expect(after.grants.client_credentials).toBe((before.grants.client_credentials ?? 0) + 1);
  expect(after.unauthorized).toBe(before.unauthorized);
});

it("a config that cannot work is refused at open with the field named", async () => {
  const fault = await openFault(
    {
      ...streamableHttpServer("ci", fixture.mcpUrl),
      ...UNHURRIED_DEADLINES,
      oauth: { grant: "client_credentials", clientSecretEnv: "S" },
    },
    {},
  );
  expect(fault.kind).toBe("protocol");
  expect(fault.message).toBe(
    `server "ci" has an invalid config: oauth.clientId: the client_credentials grant needs the client's id`,
  );
});
