#!/usr/bin/env node
/**
 * The example's OpenID provider (`oidc-provider` from npm) on loopback: it
 * issues JWT access tokens for the gateway (RFC 8707 `resource`, RFC 9068
 * JWTs signed with a key made at start, published at `/jwks`).
 *
 *   node issuer.mjs --resource <gateway URL> [--resource <another audience>] [--port <n>] [--token-ttl <s>]
 *
 * Clients, registered up front (secrets are the example's, not secrets):
 *   full-agent, memory-agent   client_credentials, client_secret_basic or _post
 *   opaque-agent               client_credentials; its tokens are opaque (check them by introspection)
 *   brief-agent                client_credentials; its tokens live 1 second
 *   gateway                    may introspect tokens (RFC 7662, `/token/introspection`)
 * People sign in through the browser flow (authorization code + PKCE, with
 * dynamic client registration): every sign-in is approved at once as `alice`
 * (groups `engineering`), with no form, so a script can follow the redirects.
 *
 * Prints one JSON line `{"issuer", "clients": {id: secret}}` and serves until
 * SIGTERM or SIGINT.
 */
import http from "node:http";
import { generateKeyPairSync, randomUUID } from "node:crypto";
import Provider from "oidc-provider";

const SCOPES = ["mcp:tools", "mcp:read"];
const SECRETS = {
  "full-agent": "full-agent-secret",
  "memory-agent": "memory-agent-secret",
  "opaque-agent": "opaque-agent-secret",
  "brief-agent": "brief-agent-secret",
  gateway: "gateway-secret",
};
const PEOPLE = { alice: { groups: ["engineering"] } };

const resources = valuesOf("--resource");
if (resources.length === 0) throw new Error("issuer.mjs needs --resource <gateway URL>");
const port = Number(valuesOf("--port")[0] ?? 0);
const tokenTtl = Number(valuesOf("--token-ttl")[0] ?? 3600);

function valuesOf(flag) {
  const values = [];
  process.argv.forEach((arg, index) => {
    if (arg === flag && process.argv[index + 1] !== undefined) values.push(process.argv[index + 1]);
  });
  return values;
}

const server = http.createServer();
await new Promise((resolve, reject) => {
  server.once("error", reject);
  server.listen(port, "127.0.0.1", resolve);
});
const issuer = `http://127.0.0.1:${server.address().port}`;
const signingKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" });

const machineClient = (clientId, method = "client_secret_basic") => ({
  client_id: clientId,
  client_secret: SECRETS[clientId],
  token_endpoint_auth_method: method,
  grant_types: ["client_credentials"],
  redirect_uris: [],
  response_types: [],
  scope: SCOPES.join(" "),
});

const provider = new Provider(issuer, {
  jwks: { keys: [{ ...signingKey, kid: randomUUID(), alg: "RS256", use: "sig" }] },
  clientDefaults: { grant_types: ["authorization_code", "refresh_token"], token_endpoint_auth_method: "none" },
  clients: [
    machineClient("full-agent"),
    machineClient("memory-agent", "client_secret_post"),
    machineClient("opaque-agent"),
    machineClient("brief-agent"),
    machineClient("gateway"),
  ],
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    registration: { enabled: true },
    introspection: {
      enabled: true,
      // Only the gateway reads what a token says.
      allowedPolicy: (ctx) => ctx.oidc.client.clientId === "gateway",
    },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => resources[0],
      useGrantedResource: () => true,
      getResourceServerInfo: (_ctx, resource, client) => {
        if (!resources.includes(resource)) throw new Provider.errors.InvalidTarget();
        return {
          scope: SCOPES.join(" "),
          accessTokenFormat: client.clientId === "opaque-agent" ? "opaque" : "jwt",
          accessTokenTTL: client.clientId === "brief-agent" ? 1 : tokenTtl,
          jwt: { sign: { alg: "RS256" } },
        };
      },
    },
  },
  scopes: ["openid", "offline_access", ...SCOPES],
  // A person's groups ride in their access tokens, for the gateway's policy.
  extraTokenClaims: (_ctx, token) => {
    const person = token.accountId === undefined ? undefined : PEOPLE[token.accountId];
    return person === undefined ? {} : { groups: person.groups };
  },
  issueRefreshToken: (_ctx, client) => client.grantTypeAllowed("refresh_token"),
  findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  cookies: { keys: [randomUUID()] },
});
// Loopback HTTP is the example's whole world; nothing here leaves the machine.
provider.proxy = false;

/** Approve the sign-in and the consent the interaction asks for, with no form. */
async function approve(req, res) {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === "login") {
    await provider.interactionFinished(req, res, { login: { accountId: "alice" } }, { mergeWithLastSubmission: false });
    return;
  }
  const grant = details.grantId
    ? await provider.Grant.find(details.grantId)
    : new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
  const missing = details.prompt.details;
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
    grant.addResourceScope(indicator, scopes.join(" "));
  }
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

const callback = provider.callback();
server.on("request", (req, res) => {
  if (req.url?.startsWith("/interaction/")) {
    approve(req, res).catch((error) => res.writeHead(500).end(String(error)));
    return;
  }
  callback(req, res);
});

process.stdout.write(`${JSON.stringify({ issuer, clients: SECRETS })}\n`);
const stop = () => server.close(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
