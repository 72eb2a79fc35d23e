/**
 * The HTTP host as an OAuth 2.1 resource server, against the teams example's
 * real OpenID provider on loopback: the 401 challenge points at protected
 * resource metadata naming the issuer; tokens for another audience, expired
 * or tampered ones are refused 401; a token without the required scope 403
 * `insufficient_scope`; opaque tokens pass by introspection; a session
 * answers only the caller that opened it.
 */
import { serveHttp } from "@indus/provider-host";
import type { HttpProviderHost } from "@indus/provider-host";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { waitFor } from "@indus/testkit";
import { bearerGate } from "../src/auth/bearer-gate";
import { createTeamBox } from "./fixtures/team-box.mjs";
import { INITIALIZE, MCP_HEADERS, rawRequest } from "./support/http";
import { freePort } from "@indus/testkit";
import { startIssuer } from "./support/issuer";
import type { Issuer } from "./support/issuer";

jest.setTimeout(120_000);

const OTHER_AUDIENCE = "urn:indus:another-resource";
let issuer: Issuer;
let host: HttpProviderHost;
let resource: string;

beforeAll(async () => {
  const port = await freePort();
  resource = `http://127.0.0.1:${port}/mcp`;
  issuer = await startIssuer([resource, OTHER_AUDIENCE]);
  host = await serveHttp(createTeamBox().box, {
    port,
    oauth: {
      issuer: issuer.issuer,
      requiredScopes: ["mcp:tools"],
      introspection: { clientId: "gateway", clientSecret: "gateway-secret" },
    },
  });
});

afterAll(async () => {
  await host?.close({ graceMs: 0 });
  await issuer?.close();
});

function post(token: string | undefined, body: unknown = INITIALIZE) {
  const headers: Record<string, string> = { ...MCP_HEADERS };
  if (token !== undefined) headers["authorization"] = `Bearer ${token}`;
  return rawRequest(host.url, { headers, body: JSON.stringify(body) });
}

function challenge(response: { headers: Record<string, string | string[] | undefined> }): string {
  const header = response.headers["www-authenticate"];
  return Array.isArray(header) ? header.join(", ") : (header ?? "");
}

describe("OAuth resource server", () => {
  it("answers a request without a token 401 with a resource_metadata challenge", async () => {
    const response = await post(undefined);
    expect(response.status).toBe(401);
    expect(challenge(response)).toContain('error="invalid_token"');
    expect(challenge(response)).toContain(
      `resource_metadata="http://127.0.0.1:${host.port}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it("serves protected resource metadata naming the issuer and the resource", async () => {
    const response = await fetch(`http://127.0.0.1:${host.port}/.well-known/oauth-protected-resource/mcp`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      resource,
      authorization_servers: [issuer.issuer],
      bearer_methods_supported: ["header"],
      scopes_supported: ["mcp:tools"],
    });
  });

  it("lets a valid token through, in both eras", async () => {
    const token = await issuer.token("full-agent");
    for (const mode of ["legacy", { pin: "2026-07-28" }] as const) {
      const client = new Client({ name: "auth-test", version: "1" }, { versionNegotiation: { mode } });
      const transport = new StreamableHTTPClientTransport(host.url, {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      });
      await client.connect(transport);
      const result = await client.callTool({ name: "alpha__echo", arguments: { message: "hi" } });
      expect(result.content).toEqual([{ type: "text", text: "alpha__echo: hi" }]);
      await client.close();
    }
  });

  it("refuses a token issued for another audience 401", async () => {
    const response = await post(await issuer.token("full-agent", { resource: OTHER_AUDIENCE }));
    expect(response.status).toBe(401);
    expect(challenge(response)).toContain("not issued for this resource");
  });

  it("refuses a tampered token 401", async () => {
    const token = await issuer.token("full-agent");
    const [head, body, signature] = token.split(".");
    const claims = JSON.parse(Buffer.from(body!, "base64url").toString()) as Record<string, unknown>;
    const forged = Buffer.from(JSON.stringify({ ...claims, client_id: "root" })).toString("base64url");
    const flipped = `${signature!.slice(0, -2)}${signature!.endsWith("AA") ? "BB" : "AA"}`;
    for (const tampered of [`${head}.${forged}.${signature}`, `${head}.${body}.${flipped}`]) {
      const response = await post(tampered);
      expect(response.status).toBe(401);
      expect(challenge(response)).toContain('error="invalid_token"');
    }
  });

  it("refuses an expired token 401", async () => {
    // brief-agent's tokens live one second; the gateway allows 30 s of clock skew.
    const token = await issuer.token("brief-agent");
    const exp = (JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as { exp: number }).exp;
    const strict = await serveHttp(createTeamBox().box, {
      oauth: { issuer: issuer.issuer, resource, clockToleranceSeconds: 0 },
    });
    try {
      await waitFor("the token's expiry to pass", () => Date.now() / 1000 > exp + 1);
      const response = await rawRequest(strict.url, {
        headers: { ...MCP_HEADERS, authorization: `Bearer ${token}` },
        body: JSON.stringify(INITIALIZE),
      });
      expect(response.status).toBe(401);
      expect(challenge(response)).toContain("expired");
    } finally {
      await strict.close({ graceMs: 0 });
    }
  });

  it("refuses a token without the required scope 403 insufficient_scope, naming the scope", async () => {
    const response = await post(await issuer.token("full-agent", { scope: "mcp:read" }));
    expect(response.status).toBe(403);
    expect(challenge(response)).toContain('error="insufficient_scope"');
    expect(challenge(response)).toContain('scope="mcp:tools"');
    expect(challenge(response)).toContain("resource_metadata=");
  });

  it("accepts an opaque token by introspection", async () => {
    const token = await issuer.token("opaque-agent");
    expect(token.split(".")).toHaveLength(1);
    expect((await post(token)).status).toBe(200);
    expect((await post(`${token}x`)).status).toBe(401);
  });

  it("answers a session only to the caller that opened it", async () => {
    const full = await issuer.token("full-agent");
    const opened = await post(full);
    const session = String(opened.headers["mcp-session-id"]);
    const ping = { jsonrpc: "2.0", id: 2, method: "ping" };
    const as = async (token: string) =>
      (
        await rawRequest(host.url, {
          headers: {
            ...MCP_HEADERS,
            authorization: `Bearer ${token}`,
            "mcp-session-id": session,
            "mcp-protocol-version": "2025-06-18",
          },
          body: JSON.stringify(ping),
        })
      ).status;
    expect(await as(await issuer.token("memory-agent"))).toBe(404);
    expect(await as(full)).toBe(200);
  });

  it("reads a token once: a client's next request gets the same verified caller back", async () => {
    // The gateway reads the caller and its grant once per verified AuthInfo object; a copy per request reads them again.
    const introspection = { clientId: "gateway", clientSecret: "gateway-secret" };
    const gate = bearerGate({ issuer: issuer.issuer, requiredScopes: ["mcp:tools"], introspection }, new URL(resource));
    // One connection carrying both callers' requests: each header gets its own caller back.
    const connection = {};
    const verified = new Map<string, unknown>();
    for (const token of [await issuer.token("full-agent"), await issuer.token("opaque-agent")]) {
      expect(gate.passed(`Bearer ${token}`)).toBeUndefined();
      const first = await gate.check(`Bearer ${token}`);
      const again = await gate.check(`Bearer ${token}`);
      expect(first).toMatchObject({ resourceMetadataUrl: gate.metadataUrl });
      expect(again).toBe(first);
      // The next request's header is let through without waiting on a promise.
      expect(gate.passed(`Bearer ${token}`)).toBe(first);
      expect(gate.passed(`Bearer ${token}`, connection)).toBe(first);
      verified.set(token, first);
    }
    for (const [token, first] of verified) expect(gate.passed(`Bearer ${token}`, connection)).toBe(first);
    expect(gate.passed("Bearer not-a-token", connection)).toBeUndefined();
    expect(gate.passed(undefined)).toBeUndefined();
    expect(gate.passed("Bearer not-a-token")).toBeUndefined();
    expect(await gate.check("Bearer not-a-token")).toMatchObject({ kind: "refused", status: 401 });
    expect(gate.passed("Bearer not-a-token")).toBeUndefined();
  });
});
