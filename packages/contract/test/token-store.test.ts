import { memoryTokenStore, parseServerConfig } from "@indus/contract";

describe("memoryTokenStore", () => {
  it("keeps a copy per server, and forgets on remove", async () => {
    const store = memoryTokenStore();
    const record = { serverUrl: "https://api.example/mcp", tokens: { access_token: "a", token_type: "Bearer" } };
    await store.save("api", record);
    record.tokens.access_token = "changed after save";
    expect((await store.load("api"))?.tokens).toEqual({ access_token: "a", token_type: "Bearer" });
    expect(await store.load("other")).toBeUndefined();
    expect(await store.remove("api")).toBe(true);
    expect(await store.remove("api")).toBe(false);
    expect(await store.load("api")).toBeUndefined();
  });
});

describe("oauth settings on HTTP servers", () => {
  it("accepts a pre-registered client, scopes and a callback port", () => {
    const parsed = parseServerConfig({
      transport: "streamable-http",
      id: "linear",
      url: "https://mcp.linear.app/mcp",
      oauth: { clientId: "abc", clientSecret: "s3cret", scopes: ["read"], callbackPort: 8765 },
    });
    expect(parsed.ok && parsed.value.transport !== "stdio" && parsed.value.oauth).toEqual({
      clientId: "abc",
      clientSecret: "s3cret",
      scopes: ["read"],
      callbackPort: 8765,
    });
  });

  it("names the bad field", () => {
    const parsed = parseServerConfig({ transport: "sse", id: "s", url: "http://x/sse", oauth: { callbackPort: 0 } });
    expect(!parsed.ok && parsed.issues.map((issue) => issue.path)).toEqual(["oauth.callbackPort"]);
    const stdio = parseServerConfig({ transport: "stdio", id: "s", command: "x", oauth: {} });
    expect(stdio.ok).toBe(false);
  });
});

describe("client_credentials settings", () => {
  const server = (oauth: Record<string, unknown>) =>
    parseServerConfig({ transport: "streamable-http", id: "ci", url: "https://mcp.example/mcp", oauth });
  const issues = (oauth: Record<string, unknown>) => {
    const parsed = server(oauth);
    return parsed.ok ? [] : parsed.issues.map((issue) => `${issue.path}: ${issue.message}`);
  };

  it("accepts a secret named by its variable, and a key from a file or a variable", () => {
    expect(server({ grant: "client_credentials", clientId: "bot", clientSecretEnv: "BOT_SECRET" }).ok).toBe(true);
    expect(
      server({
        grant: "client_credentials",
        clientId: "bot",
        clientSecretEnv: "BOT_SECRET",
        authMethod: "client_secret_post",
        scopes: ["mcp:tools"],
        issuer: "https://auth.example",
        dpop: true,
      }).ok,
    ).toBe(true);
    expect(
      server({ grant: "client_credentials", clientId: "bot", privateKeyFile: "~/bot.pem", signingAlgorithm: "ES256" })
        .ok,
    ).toBe(true);
    expect(
      server({
        grant: "client_credentials",
        clientId: "bot",
        authMethod: "private_key_jwt",
        privateKeyEnv: "BOT_KEY",
        signingAlgorithm: "RS256",
      }).ok,
    ).toBe(true);
  });

  it("names the field that is missing or misplaced", () => {
    expect(issues({ grant: "client_credentials", clientSecretEnv: "S" })).toEqual([
      "oauth.clientId: the client_credentials grant needs the client's id",
    ]);
    expect(issues({ grant: "client_credentials", clientId: "bot" })).toEqual([
      "oauth.clientSecretEnv: client_secret_basic needs the client secret: name its variable here",
    ]);
    expect(issues({ grant: "client_credentials", clientId: "bot", privateKeyEnv: "K" })).toEqual([
      "oauth.signingAlgorithm: private_key_jwt needs the key's algorithm (RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512, EdDSA)",
    ]);
    expect(
      issues({
        grant: "client_credentials",
        clientId: "bot",
        authMethod: "private_key_jwt",
        signingAlgorithm: "ES256",
      }),
    ).toEqual(["oauth.privateKeyEnv: private_key_jwt needs the private key: privateKeyEnv or privateKeyFile"]);
    expect(issues({ grant: "client_credentials", clientId: "bot", clientSecretEnv: "not a name" })).toEqual([
      "oauth.clientSecretEnv: must name an environment variable",
    ]);
    expect(issues({ grant: "client_credentials", clientId: "bot", clientSecretEnv: "S", callbackPort: 9000 })).toEqual([
      "oauth.callbackPort: only applies to the authorization_code grant (a browser sign-in)",
    ]);
    expect(issues({ clientId: "bot", privateKeyFile: "k.pem" })).toEqual([
      'oauth.privateKeyFile: only applies with grant = "client_credentials"',
    ]);
    expect(issues({ grant: "password" })[0]).toMatch(/^oauth\.grant: /);
  });

  it("keeps the authorization_code grant the default, with a secret from a variable", () => {
    const parsed = server({ clientId: "app", clientSecretEnv: "APP_SECRET" });
    expect(parsed.ok && parsed.value.transport !== "stdio" && parsed.value.oauth).toEqual({
      clientId: "app",
      clientSecretEnv: "APP_SECRET",
    });
  });
});
