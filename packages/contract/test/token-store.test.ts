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
