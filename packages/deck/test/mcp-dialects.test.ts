import path from "node:path";
import { approveProjectRows, loadMcpConfig, readPeerFile } from "@indus/deck/mcp-config";
import { resolveMcpConfig } from "@indus/deck";
import { tempDir, write } from "./helpers";

/** A private HOME and project, with each client's file in its real place. */
function world() {
  const home = tempDir("dialect-home-");
  const project = tempDir("dialect-proj-");
  return { home, project, env: { HOME: home, TOKEN: "secret123", XDG_STATE_HOME: path.join(home, "state") } };
}

describe("each client's dialect, read directly", () => {
  it("Codex config.toml: mcp_servers tables, bearer_token_env_var, http and env headers, tool filters, timeouts", () => {
    const { home, project, env } = world();
    write(home, {
      ".codex/config.toml": `
model = "o3"
[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-server"]
env = { LEVEL = "debug" }
env_vars = ["TOKEN"]
startup_timeout_sec = 20
tool_timeout_sec = 45
enabled_tools = ["search"]

[mcp_servers.remote]
url = "http://127.0.0.1:9/mcp"
bearer_token_env_var = "TOKEN"
http_headers = { "X-Client" = "indus" }
env_http_headers = { "X-Key" = "TOKEN" }
disabled_tools = ["delete_*"]

[mcp_servers.off]
command = "x"
enabled = false
`,
    });
    const load = loadMcpConfig(path.join(home, ".codex/config.toml"), { env, cwd: project });
    expect(load.diagnostics).toEqual([]);
    expect(load.servers).toEqual([
      {
        transport: "stdio",
        id: "docs",
        command: "npx",
        args: ["-y", "docs-server"],
        env: { LEVEL: "debug" },
        // Codex's allow-list: TOKEN is inherited from the user's environment when the server starts.
        envVars: ["TOKEN"],
        startupTimeoutMs: 20_000,
        toolTimeoutMs: 45_000,
        includeTools: ["search"],
      },
      {
        transport: "streamable-http",
        id: "remote",
        url: "http://127.0.0.1:9/mcp",
        headers: { "X-Client": "indus", "X-Key": "secret123", Authorization: "Bearer secret123" },
        excludeTools: ["delete_*"],
      },
    ]);
    expect(load.disabled.map((d) => d.name)).toEqual(["off"]);
    expect(load.origins.get("remote")).toMatchObject({ dialect: "codex", row: "mcp_servers.remote" });
  });

  it("config.toml: a client_credentials server's oauth table", () => {
    const { home, project, env } = world();
    write(home, {
      ".codex/config.toml": `
[mcp_servers.ci]
url = "https://mcp.example/mcp"

[mcp_servers.ci.oauth]
grant = "client_credentials"
clientId = "ci-bot"
authMethod = "private_key_jwt"
privateKeyFile = "~/.config/indusr/ci-bot.pem"
signingAlgorithm = "ES256"
issuer = "https://auth.example"
`,
    });
    const load = loadMcpConfig(path.join(home, ".codex/config.toml"), { env, cwd: project });
    expect(load.diagnostics).toEqual([]);
    expect(load.servers[0]).toMatchObject({
      id: "ci",
      oauth: {
        grant: "client_credentials",
        clientId: "ci-bot",
        authMethod: "private_key_jwt",
        privateKeyFile: path.join(home, ".config/indusr/ci-bot.pem"),
        signingAlgorithm: "ES256",
        issuer: "https://auth.example",
      },
    });
  });

  it("opencode.json: mcp, local/remote, command arrays, environment, {env:VAR}, timeout bounds the listing", () => {
    const { project, env } = world();
    write(project, {
      "opencode.json": `{
        "$schema": "https://opencode.ai/config.json",
        // comments are allowed
        "mcp": {
          "local": { "type": "local", "command": ["node", "srv.js"], "environment": { "K": "{env:TOKEN}" }, "timeout": 8000 },
          "rem": { "type": "remote", "url": "http://127.0.0.1:9/mcp", "headers": { "Authorization": "Bearer {env:TOKEN}" } },
          "off": { "type": "local", "command": ["x"], "enabled": false },
        },
      }`,
    });
    const load = loadMcpConfig(path.join(project, "opencode.json"), { env, cwd: project });
    expect(load.diagnostics).toEqual([]);
    expect(load.servers).toEqual([
      {
        transport: "stdio",
        id: "local",
        command: "node",
        args: ["srv.js"],
        env: { K: "secret123" },
        listTimeoutMs: 8000,
      },
      {
        transport: "streamable-http",
        id: "rem",
        url: "http://127.0.0.1:9/mcp",
        headers: { Authorization: "Bearer secret123" },
      },
    ]);
    expect(load.disabled.map((d) => d.name)).toEqual(["off"]);
  });

  it("VS Code .vscode/mcp.json: inputs are asked for (or refused), ${workspaceFolder}, ${userHome}, ${env:X}, envFile", () => {
    const { home, project, env } = world();
    write(project, {
      ".env": "FROM_FILE=yes\nTOKEN=from-file\n",
      ".vscode/mcp.json": `{
        "inputs": [{ "type": "promptString", "id": "api-key", "description": "API key", "password": true }],
        "servers": {
          "fs": { "type": "stdio", "command": "node", "args": ["\${workspaceFolder}/data", "\${userHome}/x"], "envFile": "\${workspaceFolder}/.env", "env": { "TOKEN": "\${env:TOKEN}" } },
          "api": { "type": "http", "url": "http://127.0.0.1:9/mcp", "headers": { "Authorization": "Bearer \${input:api-key}" } },
        },
      }`,
    });
    const file = path.join(project, ".vscode/mcp.json");
    const first = loadMcpConfig(file, { env, cwd: "/elsewhere" });
    expect(first.servers).toEqual([
      {
        transport: "stdio",
        id: "fs",
        command: "node",
        args: [`${project}/data`, `${home}/x`],
        env: { FROM_FILE: "yes", TOKEN: "secret123" },
      },
    ]);
    // Refused, naming file, row and placeholder; and what to ask for.
    expect(first.diagnostics).toEqual([
      expect.objectContaining({
        kind: "placeholder",
        file,
        row: "servers.api",
        placeholder: "${input:api-key}",
        severity: "error",
      }),
    ]);
    expect(first.pendingInputs).toEqual([{ id: "api-key", description: "API key", password: true, file }]);
    const answered = loadMcpConfig(file, { env, cwd: "/elsewhere", inputs: { "api-key": "typed" } });
    expect(answered.servers[1]).toMatchObject({ id: "api", headers: { Authorization: "Bearer typed" } });
  });

  it("Gemini settings.json: httpUrl, url is SSE, $VAR, includeTools/excludeTools, timeout, trust", () => {
    const { home, project, env } = world();
    write(home, {
      ".gemini/settings.json": JSON.stringify({
        theme: "dark",
        mcpServers: {
          http: {
            httpUrl: "http://127.0.0.1:9/mcp",
            headers: { Authorization: "Bearer $TOKEN" },
            includeTools: ["echo"],
          },
          sse: { url: "http://127.0.0.1:9/sse", timeout: 30000, trust: true },
          cmd: { command: "node", args: ["s.js"], env: { T: "$TOKEN" }, excludeTools: ["write_file"] },
        },
      }),
    });
    const load = loadMcpConfig(path.join(home, ".gemini/settings.json"), { env, cwd: project });
    expect(load.diagnostics).toEqual([]);
    expect(load.servers.map((s) => [s.id, s.transport])).toEqual([
      ["http", "streamable-http"],
      ["sse", "sse"],
      ["cmd", "stdio"],
    ]);
    expect(load.servers[0]).toMatchObject({ headers: { Authorization: "Bearer secret123" }, includeTools: ["echo"] });
    expect(load.servers[1]).toMatchObject({ toolTimeoutMs: 30000 });
    expect(load.servers[2]).toMatchObject({ env: { T: "secret123" }, excludeTools: ["write_file"] });
  });

  it("Claude Code ~/.claude.json: user and this project's local servers; disabled ones stay disabled", () => {
    const { home, project, env } = world();
    write(home, {
      ".claude.json": JSON.stringify({
        numStartups: 3,
        mcpServers: { user1: { type: "stdio", command: "u" }, shared: { command: "user-version" } },
        projects: {
          [project]: {
            mcpServers: {
              local1: { type: "http", url: "http://127.0.0.1:9/mcp" },
              shared: { command: "local-version" },
            },
            disabledMcpServers: ["user1"],
          },
          "/other": { mcpServers: { nope: { command: "n" } } },
        },
      }),
    });
    const load = loadMcpConfig(path.join(home, ".claude.json"), { env, cwd: project });
    expect(load.servers.map((s) => s.id)).toEqual(["local1", "shared"]);
    expect(load.servers[1]).toMatchObject({ command: "local-version" });
    expect(load.disabled).toEqual([
      expect.objectContaining({ name: "user1", reason: expect.stringMatching(/disabledMcpServers/) }),
    ]);
  });

  it("Windsurf mcp_config.json: serverUrl, ${env:X}, disabled, disabledTools", () => {
    const { home, project, env } = world();
    write(home, {
      ".codeium/windsurf/mcp_config.json": JSON.stringify({
        mcpServers: {
          remote: {
            serverUrl: "http://127.0.0.1:9/mcp",
            headers: { Authorization: "Bearer ${env:TOKEN}" },
            disabledTools: ["x"],
          },
          off: { command: "x", disabled: true },
        },
      }),
    });
    const load = loadMcpConfig(path.join(home, ".codeium/windsurf/mcp_config.json"), { env, cwd: project });
    expect(load.servers).toEqual([
      {
        transport: "streamable-http",
        id: "remote",
        url: "http://127.0.0.1:9/mcp",
        headers: { Authorization: "Bearer secret123" },
        excludeTools: ["x"],
      },
    ]);
    expect(load.disabled.map((d) => d.name)).toEqual(["off"]);
  });

  it("refuses a server whose placeholder cannot be expanded, naming file, row and placeholder", () => {
    const { project, env } = world();
    write(project, {
      "m.json": JSON.stringify({
        mcpServers: { a: { url: "http://127.0.0.1:9/mcp", headers: { K: "{file:~/.key}" } } },
      }),
    });
    const load = loadMcpConfig(path.join(project, "m.json"), { env, cwd: project });
    expect(load.servers).toEqual([]);
    expect(load.diagnostics).toEqual([
      expect.objectContaining({ kind: "placeholder", row: "mcpServers.a", placeholder: "{file:~/.key}" }),
    ]);
  });
});

describe("discovery under the cwd", () => {
  it("reads .indusvx first, then other tools' files once approved, warning when a name is shadowed", () => {
    const { project, env } = world();
    write(project, {
      ".indusvx/mcp.json": JSON.stringify({ servers: { a: { command: "own" } } }),
      ".mcp.json": JSON.stringify({ mcpServers: { a: { command: "claude" }, b: { command: "b" } } }),
      ".vscode/mcp.json": JSON.stringify({ servers: { c: { command: "c" } } }),
      "opencode.json": JSON.stringify({ mcp: { d: { type: "local", command: ["d"] } } }),
    });
    const before = resolveMcpConfig({}, project, { env });
    expect(before.servers.map((s) => s.id)).toEqual(["a"]);
    expect(before.pendingApproval.map((p) => [path.relative(project, p.file), p.names])).toEqual([
      [".mcp.json", ["a", "b"]],
      [".vscode/mcp.json", ["c"]],
      ["opencode.json", ["d"]],
    ]);
    expect(before.diagnostics.filter((d) => d.kind === "needs-approval")).toHaveLength(3);

    approveProjectRows(project, before.pendingApproval, env);
    const after = resolveMcpConfig({}, project, { env });
    expect(after.servers.map((s) => s.id)).toEqual(["a", "b", "c", "d"]);
    expect(after.servers[0]).toMatchObject({ command: "own" });
    expect(after.diagnostics).toEqual([
      expect.objectContaining({ kind: "shadowed", file: path.join(project, ".mcp.json"), row: "mcpServers.a" }),
    ]);
    // An explicit --mcp path is the user's own choice: no approval needed.
    const other = world();
    expect(
      resolveMcpConfig({ mcp: [path.join(project, ".mcp.json")] }, project, { env: other.env }).servers.map(
        (s) => s.id,
      ),
    ).toEqual(["a", "b"]);
  });

  it("keeps a .mcp.json server that Claude Code disabled for the project disabled", () => {
    const { home, project, env } = world();
    write(project, { ".mcp.json": JSON.stringify({ mcpServers: { on: { command: "x" }, off: { command: "y" } } }) });
    write(home, { ".claude.json": JSON.stringify({ projects: { [project]: { disabledMcpjsonServers: ["off"] } } }) });
    const load = resolveMcpConfig({ mcp: [path.join(project, ".mcp.json")] }, project, { env });
    expect(load.servers.map((s) => s.id)).toEqual(["on"]);
    expect(load.disabled.map((d) => d.name)).toEqual(["off"]);
  });
});

describe("readPeerFile (for mcp import)", () => {
  it("keeps references as references, in indus syntax, and turns ${input:x} into a variable to set", () => {
    const { home, project } = world();
    write(project, {
      ".vscode/mcp.json": JSON.stringify({
        servers: {
          api: {
            type: "http",
            url: "http://h/mcp",
            headers: { Authorization: "Bearer ${input:api-key}", X: "${env:TOKEN}" },
          },
        },
      }),
    });
    const read = readPeerFile(path.join(project, ".vscode/mcp.json"), { cwd: project, home });
    expect(read.servers[0]?.row).toEqual({
      transport: "streamable-http",
      url: "http://h/mcp",
      headers: { Authorization: "Bearer ${API_KEY}", X: "${TOKEN}" },
    });
    expect(read.servers[0]?.notes).toEqual([expect.stringMatching(/set API_KEY/)]);
  });
});
