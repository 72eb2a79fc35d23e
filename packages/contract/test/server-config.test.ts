import {
  BridgeConfigSchema,
  TRANSPORT_KINDS,
  parseBridgeConfig,
  parseServerConfig,
  sseServer,
  stdioServer,
  streamableHttpServer,
} from "@indus/contract";

describe("server configs", () => {
  it("fills defaults for a minimal stdio server", () => {
    expect(parseServerConfig({ transport: "stdio", id: "fs", command: "npx" })).toEqual({
      ok: true,
      value: { transport: "stdio", id: "fs", command: "npx", args: [], env: {} },
    });
  });

  it("keeps env and headers in declaration order", () => {
    const stdio = parseServerConfig({
      transport: "stdio",
      id: "a",
      command: "x",
      env: { ZED: "1", ALPHA: "2", MID: "3" },
    });
    expect(stdio.ok && stdio.value.transport === "stdio" && Object.keys(stdio.value.env)).toEqual([
      "ZED",
      "ALPHA",
      "MID",
    ]);
    const http = parseServerConfig({
      transport: "streamable-http",
      id: "h",
      url: "http://127.0.0.1:3000/mcp",
      headers: { "X-Z": "z", Authorization: "Bearer t", "X-A": "a" },
    });
    expect(http.ok && http.value.transport !== "stdio" && Object.keys(http.value.headers)).toEqual([
      "X-Z",
      "Authorization",
      "X-A",
    ]);
  });

  it("accepts every transport and the shared options", () => {
    const parsed = parseBridgeConfig({
      servers: [
        { transport: "stdio", id: "fs", command: "node", args: ["s.js"], cwd: "/tmp", toolTimeoutMs: 5000 },
        { transport: "sse", id: "legacy", url: "https://example.com/sse" },
        {
          transport: "streamable-http",
          id: "remote",
          url: "http://127.0.0.1:8080/mcp",
          includeTools: ["get_*"],
          excludeTools: ["get_secret"],
          reconnect: { maxAttempts: 3 },
        },
      ],
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.servers.map((s) => s.transport)).toEqual([...TRANSPORT_KINDS]);
    const remote = parsed.value.servers[2];
    expect(remote?.reconnect).toEqual({ maxAttempts: 3, initialDelayMs: 500, maxDelayMs: 30000 });
  });

  it.each([
    [{ transport: "stdio", id: "fs" }, "command", /expected string/i],
    [{ transport: "stdio", id: "fs", command: "" }, "command", /must name the program/],
    [{ transport: "stdio", id: "2fs", command: "x" }, "id", /must start with a letter/],
    [{ transport: "sse", id: "s", url: "ftp://x/y" }, "url", /http/],
    [{ transport: "sse", id: "s", url: "not a url" }, "url", /http/],
    [{ transport: "stdio", id: "s", command: "x", args: ["ok", 3] }, "args.1", /expected string/i],
    [{ transport: "stdio", id: "s", command: "x", env: { A: 1 } }, "env.A", /expected string/i],
    [{ transport: "websocket", id: "s", url: "ws://x" }, "transport", /.+/],
    [{ transport: "stdio", id: "s", command: "x", toolTimeoutMs: -1 }, "toolTimeoutMs", /.+/],
    [{ transport: "stdio", id: "s", command: "x", comand: "typo" }, "(root)", /comand/],
  ])("rejects %j at %s", (input, path, message) => {
    const parsed = parseServerConfig(input);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    const issue = parsed.issues.find((i) => i.path === path);
    expect(issue).toBeDefined();
    expect(issue?.message).toMatch(message);
  });

  it("names the row of a bad server inside a bridge config", () => {
    const parsed = parseBridgeConfig({
      servers: [
        { transport: "stdio", id: "ok", command: "x" },
        { transport: "sse", id: "bad" },
      ],
    });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.issues.map((i) => i.path)).toEqual(["servers.1.url"]);
    expect(parseBridgeConfig("nope").ok).toBe(false);
    expect(() => BridgeConfigSchema.parse({ servers: [] })).not.toThrow();
  });

  it("offers convenience constructors that copy their inputs", () => {
    const args = ["a"];
    const made = stdioServer("fs", "node", args, { K: "v" });
    args.push("b");
    expect(made).toEqual({ transport: "stdio", id: "fs", command: "node", args: ["a"], env: { K: "v" } });
    expect(sseServer("s", "http://x/sse")).toEqual({ transport: "sse", id: "s", url: "http://x/sse", headers: {} });
    expect(streamableHttpServer("h", "http://x/mcp", { A: "1" }).headers).toEqual({ A: "1" });
    for (const config of [made, sseServer("s", "http://x/sse"), streamableHttpServer("h", "http://x/mcp")]) {
      expect(parseServerConfig(config).ok).toBe(true);
    }
  });
});
