import fs from "node:fs";
import path from "node:path";
import { loadMcpConfig, mcpConfigSearchPaths, parseMcpConfigText } from "@indus/deck/mcp-config";
import { resolveMcpConfig } from "@indus/deck";
import { tempDir, write } from "./helpers";

function home() {
  const root = tempDir("deck-home-");
  return { root, env: { HOME: root } as Record<string, string | undefined> };
}

describe("loadMcpConfig discovery", () => {
  it("merges project, XDG user and legacy files in precedence order", () => {
    const { root, env } = home();
    const project = tempDir("deck-proj-");
    write(project, { ".indusvx/mcp.json": JSON.stringify({ servers: { fs: { command: "node", args: ["fs.js"] } } }) });
    write(root, {
      ".config/indusvx/mcp.json": JSON.stringify({
        servers: [
          { name: "user1", url: "http://127.0.0.1:9/mcp" },
          { name: "fs", command: "other" },
        ],
      }),
      ".indusvx/agent/mcp.json": JSON.stringify({ mcpServers: { legacy: { command: "legacy-cmd" } } }),
      ".indusvx/agent/mcp-servers.json": JSON.stringify({ servers: { alt: { command: "alt-cmd" } } }),
    });
    const load = loadMcpConfig(project, { env: env });
    expect(load.servers.map((s) => s.id)).toEqual(["fs", "user1", "legacy", "alt"]);
    expect(load.servers[0]).toEqual({ transport: "stdio", id: "fs", command: "node", args: ["fs.js"], env: {} });
    expect(load.servers[1]).toEqual({
      transport: "streamable-http",
      id: "user1",
      url: "http://127.0.0.1:9/mcp",
      headers: {},
    });
    expect(load.origins.get("fs")).toEqual({
      file: path.join(project, ".indusvx/mcp.json"),
      row: "servers.fs",
      scope: "project",
      dialect: "indus",
      written: { transport: "stdio", command: "node", args: ["fs.js"] },
    });
    expect(load.origins.get("legacy")?.scope).toBe("legacy");
    // The project's fs shadows the user's: the later one is reported, not loaded.
    expect(load.diagnostics).toEqual([
      {
        file: path.join(root, ".config/indusvx/mcp.json"),
        row: "servers[1]",
        kind: "shadowed",
        message: expect.stringMatching(
          /server "fs" is shadowed by .*\.indusvx\/mcp\.json \(servers\.fs\), which defines it first; this definition is ignored/,
        ),
        severity: "warning",
      },
    ]);
    expect(load.files.map((f) => f.scope)).toEqual(["project", "user", "legacy", "legacy"]);
  });

  it(".dispatch/mcp.json wins over opencode.json (the dispatch seed), and the loser is reported as shadowed", () => {
    const { env } = home();
    const project = tempDir("deck-proj-");
    write(project, {
      ".dispatch/mcp.json": JSON.stringify({ servers: { dsrv: { command: "from-dispatch" } } }),
      "opencode.json": JSON.stringify({ mcp: { dsrv: { type: "local", command: ["from-opencode"] } } }),
    });
    const load = loadMcpConfig(project, { env, approval: "skip" });
    expect(load.servers).toMatchObject([{ id: "dsrv", command: "from-dispatch" }]);
    expect(load.diagnostics).toMatchObject([
      { file: path.join(project, "opencode.json"), kind: "shadowed", message: expect.stringContaining(".dispatch") },
    ]);
  });

  it("honours XDG_CONFIG_HOME and finds nothing (silently) when no file exists", () => {
    const { root } = home();
    const xdg = tempDir("deck-xdg-");
    write(xdg, { "indusvx/mcp.json": JSON.stringify({ servers: { x: { command: "x" } } }) });
    expect(loadMcpConfig(tempDir(), { env: { HOME: root, XDG_CONFIG_HOME: xdg } }).servers.map((s) => s.id)).toEqual([
      "x",
    ]);
    const empty = loadMcpConfig(tempDir(), { env: { HOME: root } });
    expect(empty).toMatchObject({ servers: [], diagnostics: [], files: [] });
    expect(mcpConfigSearchPaths("/p", { HOME: "/h" }).map((p) => p.file)).toEqual([
      "/p/.indusvx/mcp.json",
      "/p/.mcp.json",
      "/p/.vscode/mcp.json",
      "/p/.cursor/mcp.json",
      "/p/.dispatch/mcp.json",
      "/p/opencode.json",
      "/h/.config/indusvx/mcp.json",
      "/h/.indusvx/agent/mcp.json",
      "/h/.indusvx/agent/mcp-servers.json",
    ]);
  });

  it("reads an existing file directly, bypassing discovery", () => {
    const { root, env } = home();
    write(root, { ".config/indusvx/mcp.json": JSON.stringify({ servers: { user: { command: "u" } } }) });
    const dir = tempDir();
    write(dir, { "my.json": JSON.stringify({ servers: { only: { command: "o", cwd: "sub" } } }) });
    const load = loadMcpConfig(path.join(dir, "my.json"), { env: env });
    expect(load.servers).toEqual([
      { transport: "stdio", id: "only", command: "o", args: [], env: {}, cwd: path.join(dir, "sub") },
    ]);
    expect(load.origins.get("only")?.scope).toBe("explicit");
  });

  it("reports a missing path and a malformed file, yielding nothing, never throwing", () => {
    const dir = tempDir();
    const missing = loadMcpConfig(path.join(dir, "nope.json"), { env: {} });
    expect(missing.servers).toEqual([]);
    expect(missing.diagnostics[0]).toMatchObject({ message: "no such file or directory", severity: "error" });
    write(dir, { "bad.json": '{"servers": {"a": {"command": "x"}' });
    const bad = loadMcpConfig(path.join(dir, "bad.json"), { env: {} });
    expect(bad.servers).toEqual([]);
    expect(bad.diagnostics).toEqual([
      {
        kind: "malformed",
        file: path.join(dir, "bad.json"),
        message: expect.stringMatching(/^malformed JSON, nothing loaded/),
        severity: "error",
      },
    ]);
    write(dir, { "arr.json": "[1,2]", "none.json": "{}", "num.json": '{"servers": 5}' });
    expect(loadMcpConfig(path.join(dir, "arr.json"), { env: {} }).diagnostics[0]?.message).toMatch(
      /must be an object with a servers/,
    );
    // An explicit file with nothing indus can read is an error (the CLI exits 2 on it).
    expect(loadMcpConfig(path.join(dir, "none.json"), { env: {} }).diagnostics[0]).toMatchObject({
      kind: "unrecognized",
      severity: "error",
      message: expect.stringMatching(/found no servers or mcpServers key/),
    });
    expect(loadMcpConfig(path.join(dir, "num.json"), { env: {} }).diagnostics[0]?.message).toMatch(
      /"servers" must be an array or an object/,
    );
  });

  it("reports an unreadable file (here: a directory where the file should be)", () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, ".indusvx/mcp.json"), { recursive: true });
    const load = loadMcpConfig(dir, { env: { HOME: dir } });
    expect(load.servers).toEqual([]);
    expect(load.diagnostics[0]).toMatchObject({
      file: path.join(dir, ".indusvx/mcp.json"),
      severity: "error",
      message: expect.stringMatching(/cannot read/),
    });
  });
});

describe("config rows", () => {
  const parse = (doc: unknown, env: Record<string, string> = {}) =>
    parseMcpConfigText(JSON.stringify(doc), "/cfg/mcp.json", { env });

  it("skips a single bad row with a diagnostic naming the row and field, keeping the rest", () => {
    const load = parse({
      servers: [
        { name: "good", command: "node" },
        { name: "badurl", url: "ftp://nope" },
        { command: "nameless" },
        { name: "neither" },
        { name: "bad id!", command: "x" },
        { name: "argsbad", command: "x", args: [{}] },
        "not an object",
        { name: "both", command: "x", url: "http://h/" },
        { name: "weird", type: "carrier-pigeon" },
        { name: "zero", command: "x", startupTimeoutMs: 0 },
      ],
    });
    expect(load.servers.map((s) => s.id)).toEqual(["good"]);
    const byRow = Object.fromEntries(load.diagnostics.map((d) => [d.row, d.message]));
    expect(byRow).toEqual({
      "servers[1]": "url: must be an http:// or https:// URL; server skipped",
      "servers[2]": 'needs a "name"; server skipped',
      "servers[3]": "needs a command (stdio) or a url (http); server skipped",
      "servers[4]": expect.stringMatching(/^name: must start with a letter/),
      "servers[5]": "args.0: must be a string; server skipped",
      "servers[6]": "must be an object; server skipped",
      "servers[7]": "has both command and url; set transport (stdio, http or sse); server skipped",
      "servers[8]": 'type: unknown transport "carrier-pigeon"; use stdio, http or sse; server skipped',
      "servers[9]": expect.stringMatching(/^startupTimeoutMs: /),
    });
    expect(load.diagnostics.every((d) => d.file === "/cfg/mcp.json" && d.severity === "error")).toBe(true);
  });

  it("drops enabled:false and disabled:true rows, recording them", () => {
    const load = parse({
      servers: {
        off: { command: "x", enabled: false },
        dis: { command: "y", disabled: true },
        on: { command: "z", enabled: true },
      },
    });
    expect(load.servers.map((s) => s.id)).toEqual(["on"]);
    expect(load.disabled.map((d) => d.name)).toEqual(["off", "dis"]);
    expect(load.diagnostics).toEqual([]);
  });

  it("maps command to stdio, url to streamable HTTP, and an explicit sse to SSE", () => {
    const load = parse({
      mcpServers: {
        a: { command: "npx", args: ["-y", "srv", 3], env: { N: 1 } },
        b: { url: "https://h/mcp", headers: { Authorization: "Bearer t" } },
        c: { url: "https://h/sse", transport: "sse" },
        d: { type: "sse", url: "https://h/sse2" },
        e: { type: "http", url: "https://h/e" },
        f: { type: "stdio", command: "f" },
        g: { httpUrl: "https://h/g" },
      },
    });
    expect(load.servers.map((s) => [s.id, s.transport])).toEqual([
      ["a", "stdio"],
      ["b", "streamable-http"],
      ["c", "sse"],
      ["d", "sse"],
      ["e", "streamable-http"],
      ["f", "stdio"],
      ["g", "streamable-http"],
    ]);
    expect(load.servers[0]).toMatchObject({ args: ["-y", "srv", "3"], env: { N: "1" } });
    expect(load.servers[1]).toMatchObject({ headers: { Authorization: "Bearer t" } });
  });

  it("accepts what users paste: Claude Desktop, VS Code (JSONC), Dispatch, opencode", () => {
    const claude = parse({
      mcpServers: { filesystem: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"] } },
    });
    expect(claude.servers[0]).toMatchObject({ transport: "stdio", id: "filesystem" });
    const vscode = parseMcpConfigText(
      `{
        // VS Code allows comments
        "servers": {
          "gh": { "type": "http", "url": "https://api.example.com/mcp", },
          "local": { "type": "stdio", "command": "node", "args": ["x.js"], "envFile": "\${workspaceFolder}/.env" }, /* trailing */
        },
        "inputs": [],
      }`,
      "/cfg/.vscode/mcp.json",
    );
    // envFile is read relative to the workspace (/cfg); it does not exist, so that server is refused.
    expect(vscode.servers.map((s) => [s.id, s.transport])).toEqual([["gh", "streamable-http"]]);
    expect(vscode.diagnostics).toEqual([
      {
        kind: "row",
        file: "/cfg/.vscode/mcp.json",
        row: "servers.local",
        message: expect.stringMatching(/^envFile \/cfg\/\.env: ENOENT.*; server skipped$/),
        severity: "error",
      },
    ]);
    const dispatch = parse({
      servers: {
        remote: { transport: "http", url: "http://192.168.1.100:9876/mcp" },
        off: { command: "x", disabled: true },
      },
    });
    expect(dispatch.servers).toEqual([
      { transport: "streamable-http", id: "remote", url: "http://192.168.1.100:9876/mcp", headers: {} },
    ]);
    const opencode = parse({
      mcp: {
        oc: { type: "local", command: ["bun", "x", "srv"], environment: { K: "v" } },
        rem: { type: "remote", url: "https://r/mcp" },
      },
    });
    expect(opencode.servers).toEqual([
      { transport: "stdio", id: "oc", command: "bun", args: ["x", "srv"], env: { K: "v" } },
      { transport: "streamable-http", id: "rem", url: "https://r/mcp", headers: {} },
    ]);
  });

  it("keeps a remote server's oauth settings, expanding the client secret reference", () => {
    const load = parse(
      {
        mcpServers: {
          linear: {
            url: "https://mcp.linear.app/mcp",
            oauth: { clientId: "abc", clientSecret: "${LINEAR_SECRET}", scopes: ["read"], callbackPort: 8765 },
          },
        },
      },
      { LINEAR_SECRET: "s3cret" },
    );
    expect(load.diagnostics).toEqual([]);
    expect(load.servers[0]).toMatchObject({
      oauth: { clientId: "abc", clientSecret: "s3cret", scopes: ["read"], callbackPort: 8765 },
    });
  });

  it("keeps a client_credentials server's settings: names of variables, a key file resolved like cwd", () => {
    const load = parse(
      {
        mcpServers: {
          ci: {
            url: "https://mcp.example/mcp",
            oauth: {
              grant: "client_credentials",
              clientId: "bot",
              clientSecretEnv: "CI_SECRET",
              scopes: ["mcp:tools"],
            },
          },
          signer: {
            url: "https://mcp.example/mcp",
            oauth: {
              grant: "client_credentials",
              clientId: "bot",
              privateKeyFile: "${KEYS}/bot.pem",
              signingAlgorithm: "ES256",
            },
          },
          home: {
            url: "https://mcp.example/mcp",
            oauth: {
              grant: "client_credentials",
              clientId: "bot",
              privateKeyFile: "~/bot.pem",
              signingAlgorithm: "RS256",
            },
          },
        },
      },
      { KEYS: "keys", HOME: "/home/u" },
    );
    expect(load.diagnostics).toEqual([]);
    expect(load.servers.map((s) => s.transport !== "stdio" && s.oauth)).toEqual([
      // The secret stays a name: it is read when connecting, never written into the loaded config.
      { grant: "client_credentials", clientId: "bot", clientSecretEnv: "CI_SECRET", scopes: ["mcp:tools"] },
      { grant: "client_credentials", clientId: "bot", privateKeyFile: "/cfg/keys/bot.pem", signingAlgorithm: "ES256" },
      { grant: "client_credentials", clientId: "bot", privateKeyFile: "/home/u/bot.pem", signingAlgorithm: "RS256" },
    ]);
  });

  it("skips a client_credentials server whose settings cannot work, naming the server and the field", () => {
    const load = parse({
      mcpServers: {
        ci: { url: "https://mcp.example/mcp", oauth: { grant: "client_credentials", clientSecretEnv: "S" } },
        jwt: {
          url: "https://mcp.example/mcp",
          oauth: { grant: "client_credentials", clientId: "bot", privateKeyEnv: "K" },
        },
      },
    });
    expect(load.servers).toEqual([]);
    expect(load.diagnostics.map((d) => [d.row, d.message])).toEqual([
      ["mcpServers.ci", "oauth.clientId: the client_credentials grant needs the client's id; server skipped"],
      [
        "mcpServers.jwt",
        "oauth.signingAlgorithm: private_key_jwt needs the key's algorithm (RS256, RS384, RS512, PS256, PS384, PS512, ES256, ES384, ES512, EdDSA); server skipped",
      ],
    ]);
  });

  it("expands ${VAR} and ${VAR:-default} in command, args, env, url and headers", () => {
    const load = parse(
      {
        servers: {
          s: {
            command: "${BIN}",
            args: ["--root", "${ROOT:-/srv}", "${env:BIN}"],
            env: { TOKEN: "${TOKEN}", EMPTY: "${NOPE:-}" },
          },
          h: { url: "https://${HOST}/mcp", headers: { Authorization: "Bearer ${TOKEN}", X: "${MISSING}" } },
        },
      },
      { BIN: "node", TOKEN: "sekret", HOST: "api.example.com" },
    );
    expect(load.servers[0]).toMatchObject({
      command: "node",
      args: ["--root", "/srv", "node"],
      env: { TOKEN: "sekret", EMPTY: "" },
    });
    // An unset variable is never sent as "" or as the literal placeholder: the server is refused.
    expect(load.servers).toHaveLength(1);
    expect(load.diagnostics).toEqual([
      {
        kind: "placeholder",
        file: "/cfg/mcp.json",
        row: "servers.h",
        placeholder: "${MISSING}",
        message: expect.stringMatching(
          /^\$\{MISSING\}: environment variable MISSING is not set; server "h" not started/,
        ),
        severity: "error",
      },
    ]);
  });

  it("carries per-server cwd, timeouts and tool filters (Codex and Gemini spellings too)", () => {
    const load = parse({
      servers: {
        a: {
          command: "x",
          cwd: "tools",
          startupTimeoutMs: 5000,
          toolTimeoutMs: 60000,
          includeTools: ["read_*"],
          excludeTools: ["read_secret"],
        },
        b: {
          command: "y",
          startup_timeout_sec: 7.5,
          tool_timeout_sec: 30,
          enabled_tools: ["a"],
          disabled_tools: ["b"],
        },
        c: { url: "http://h/", timeout: 1234 },
      },
    });
    expect(load.servers[0]).toEqual({
      transport: "stdio",
      id: "a",
      command: "x",
      args: [],
      env: {},
      cwd: "/cfg/tools",
      startupTimeoutMs: 5000,
      toolTimeoutMs: 60000,
      includeTools: ["read_*"],
      excludeTools: ["read_secret"],
    });
    expect(load.servers[1]).toMatchObject({
      startupTimeoutMs: 7500,
      toolTimeoutMs: 30000,
      includeTools: ["a"],
      excludeTools: ["b"],
    });
    expect(load.servers[2]).toMatchObject({ toolTimeoutMs: 1234 });
  });

  it("warns on unknown fields but tolerates other tools' known extras", () => {
    const load = parse({ servers: { a: { command: "x", description: "d", autoApprove: [], bogus: 1 } } });
    expect(load.servers).toHaveLength(1);
    expect(load.diagnostics).toEqual([
      {
        kind: "field",
        file: "/cfg/mcp.json",
        row: "servers.a",
        message: 'unknown field "bogus" ignored',
        severity: "warning",
      },
    ]);
  });
});

describe("resolveMcpConfig (boot without connecting)", () => {
  it("merges explicit paths in order, first definition winning, and discovers the cwd when none are given", () => {
    const dir = tempDir();
    write(dir, {
      "a.json": JSON.stringify({ servers: { one: { command: "a" }, off: { command: "z", enabled: false } } }),
      "b.json": JSON.stringify({ mcpServers: { one: { command: "b" }, two: { url: "http://h/mcp" } } }),
      ".indusvx/mcp.json": JSON.stringify({ servers: { local: { command: "l" } } }),
    });
    const env = { HOME: tempDir() };
    const explicit = resolveMcpConfig({ mcp: [path.join(dir, "a.json"), path.join(dir, "b.json")] }, dir, { env });
    expect(explicit.servers.map((s) => [s.id, s.transport])).toEqual([
      ["one", "stdio"],
      ["two", "streamable-http"],
    ]);
    expect(explicit.servers[0]).toMatchObject({ command: "a" });
    expect(explicit.origins.get("two")).toMatchObject({
      file: path.join(dir, "b.json"),
      row: "mcpServers.two",
      scope: "explicit",
    });
    expect(explicit.diagnostics).toEqual([expect.objectContaining({ row: "mcpServers.one", severity: "warning" })]);
    expect(explicit.disabled.map((d) => d.name)).toEqual(["off"]);
    expect(explicit.files.map((f) => path.basename(f.file))).toEqual(["a.json", "b.json"]);
    const discovered = resolveMcpConfig({}, dir, { env });
    expect(discovered.servers.map((s) => s.id)).toEqual(["local"]);
    expect(resolveMcpConfig({ mcp: [] }, dir, { env }).servers.map((s) => s.id)).toEqual(["local"]);
  });
});
