/**
 * Each client's real config file in its real place (private HOME), read by
 * `mcp list` / `mcp status` (directly with --mcp) and by `mcp import --from`
 * (into the user file, then listed and connected from there). The remote
 * server sits behind a logging proxy on 127.0.0.1: no request may carry an
 * unexpanded placeholder, and each must carry the expanded token.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { ToolBox } from "@indus/contract";
import { serveHttp, type HttpProviderHost } from "@indus/provider-host";
import { shifting } from "@indus/testkit";
import { makeSandbox, runCli, type Sandbox } from "./support/run-cli";

jest.setTimeout(180_000);

const TOKEN = "secret123";
const PLACEHOLDER = /\$\{|\{env:|\{file:|\$API_TOKEN|\$\w+/;

const box: ToolBox = {
  descriptors: () => [
    {
      name: "greet",
      description: "Greets.",
      parameters: { type: "object", properties: {} },
      annotations: { readOnlyHint: true },
    },
  ],
  runner: { run: async (call) => ({ callId: call.id, isError: false, content: [{ type: "text", text: "hi" }] }) },
};

interface Logged {
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
}

let host: HttpProviderHost;
let proxy: http.Server;
let proxyUrl: string;
const requests: Logged[] = [];

beforeAll(async () => {
  host = await serveHttp(box, { port: 0, tokenEnv: "PEER_TEST_TOKEN", env: { PEER_TEST_TOKEN: TOKEN } });
  const upstream = new URL(host.url);
  proxy = http.createServer((req, res) => {
    requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    const forward = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await host.close();
});

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
  requests.length = 0;
});
afterEach(() => sandbox.cleanup());

/**
 * The stdio server each peer's file names: testkit's dependency-free shifting server (tools echo, write_note,
 * show_app), started twice per peer. Reading the peer's file is the point, not the server; server-everything
 * took ~0.7 s of CPU per start.
 */
const local = () => {
  const { command, args } = shifting("ev");
  return { command, args: [...args] };
};
const write = (file: string, text: string) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
};
const cli = (args: string[]) => runCli(args, { sandbox, env: { API_TOKEN: TOKEN } });

interface Expect {
  /** name → [transport, tools after filters] */
  readonly servers: Record<string, [string, number]>;
  /** Imported too, but switched off (the client had disabled them). */
  readonly importedOff?: readonly string[];
}

/** list + status on the file itself, then import, then list + status from the user file. */
async function checkPeer(peer: string, file: string, expected: Expect): Promise<void> {
  const names = Object.keys(expected.servers);
  const listed = await cli(["mcp", "list", "--json", "--mcp", file]);
  expect(listed.code).toBe(0);
  expect(JSON.parse(listed.stdout).map((s: { name: string; transport: string }) => [s.name, s.transport])).toEqual(
    names.map((n) => [n, expected.servers[n]![0]]),
  );
  const status = await cli(["mcp", "status", "--json", "--mcp", file]);
  const statusJson = JSON.parse(status.stdout) as { name: string; phase: string; tools: number; fault: unknown }[];
  expect(statusJson.map((s) => [s.name, s.phase, s.tools])).toEqual(
    names.map((n) => [n, "ready", expected.servers[n]![1]]),
  );
  expect(status.code).toBe(0);

  const imported = await cli(["mcp", "import", "--from", peer, "--json"]);
  expect(imported.code).toBe(0);
  const report = JSON.parse(imported.stdout) as { target: string; servers: { name: string; action: string }[] };
  expect(report.target).toBe(path.join(sandbox.xdg, "indusvx", "mcp.json"));
  expect(report.servers.filter((s) => s.action === "added").map((s) => s.name)).toEqual([
    ...names,
    ...(expected.importedOff ?? []),
  ]);
  // The user file keeps references, never the token itself.
  expect(fs.readFileSync(report.target, "utf8")).not.toContain(TOKEN);

  const after = await cli(["mcp", "status", "--json"]);
  expect(after.code).toBe(0);
  expect(JSON.parse(after.stdout).map((s: { name: string; tools: number }) => [s.name, s.tools])).toEqual(
    names.map((n) => [n, expected.servers[n]![1]]),
  );
  for (const request of requests) {
    const values = [request.url, ...Object.values(request.headers).flat()].map(String);
    for (const value of values) expect(value).not.toMatch(PLACEHOLDER);
    expect(request.headers.authorization).toBe(`Bearer ${TOKEN}`);
  }
}

describe("every peer's config, in its real place", () => {
  it("Claude Desktop", async () => {
    const file = path.join(sandbox.xdg, "Claude", "claude_desktop_config.json");
    write(
      file,
      JSON.stringify({ globalShortcut: "", mcpServers: { ev: { ...local(), env: { API_KEY: "${API_TOKEN}" } } } }),
    );
    await checkPeer("claude-desktop", file, { servers: { ev: ["stdio", 3] } });
    const got = await cli(["mcp", "get", "ev", "--json"]);
    // A reference is not a secret: shown as written, never as its (secret) value.
    expect(JSON.parse(got.stdout).env).toEqual({ API_KEY: "${API_TOKEN}" });
    expect(got.stdout).not.toContain(TOKEN);
  });

  it("Claude Code (~/.claude.json: user and this project's local servers, disabled stays disabled)", async () => {
    const file = path.join(sandbox.home, ".claude.json");
    write(
      file,
      JSON.stringify({
        mcpServers: { ev: { type: "stdio", ...local() }, off: { type: "stdio", command: "nope" } },
        projects: {
          [sandbox.cwd]: {
            mcpServers: { remote: { type: "http", url: proxyUrl, headers: { Authorization: "Bearer ${API_TOKEN}" } } },
            disabledMcpServers: ["off"],
          },
        },
      }),
    );
    await checkPeer("claude-code", file, {
      servers: { remote: ["streamable-http", 1], ev: ["stdio", 3] },
      importedOff: ["off"],
    });
    const written = JSON.parse(fs.readFileSync(path.join(sandbox.xdg, "indusvx", "mcp.json"), "utf8"));
    expect(written.servers.off.enabled).toBe(false);
  });

  it("VS Code (.vscode/mcp.json: JSONC, ${env:X}, ${workspaceFolder}; ${input:x} refused off a terminal)", async () => {
    const file = path.join(sandbox.cwd, ".vscode", "mcp.json");
    write(
      file,
      `{
  // VS Code's format
  "inputs": [{ "type": "promptString", "id": "other-key", "password": true }],
  "servers": {
    "ev": { "type": "stdio", "command": ${JSON.stringify(process.execPath)}, "args": ${JSON.stringify(local().args)}, "env": { "ROOT": "\${workspaceFolder}/data" } },
    "remote": { "type": "http", "url": "${proxyUrl}", "headers": { "Authorization": "Bearer \${env:API_TOKEN}" } },
  },
}`,
    );
    await checkPeer("vscode", file, { servers: { ev: ["stdio", 3], remote: ["streamable-http", 1] } });
    const got = await cli(["mcp", "get", "ev", "--json", "--mcp", file]);
    expect(JSON.parse(got.stdout).env).toEqual({ ROOT: `${sandbox.cwd}/data` });
    // A row that needs an input is refused, naming file, row and placeholder, and never reaches the wire.
    write(file, fs.readFileSync(file, "utf8").replace("Bearer ${env:API_TOKEN}", "Bearer ${input:other-key}"));
    requests.length = 0;
    const refused = await cli(["mcp", "status", "--json", "--mcp", file]);
    expect(refused.stderr).toContain(
      `${file} (servers.remote): \${input:other-key} needs a value typed in on a terminal`,
    );
    expect(JSON.parse(refused.stdout).map((s: { name: string }) => s.name)).toEqual(["ev"]);
    expect(requests).toEqual([]);
  });

  it("Cursor (~/.cursor/mcp.json: url without type, ${env:X}, ${userHome})", async () => {
    const file = path.join(sandbox.home, ".cursor", "mcp.json");
    write(
      file,
      JSON.stringify({
        mcpServers: {
          ev: { ...local(), env: { DATA: "${userHome}/data" } },
          remote: { url: proxyUrl, headers: { Authorization: "Bearer ${env:API_TOKEN}" } },
        },
      }),
    );
    await checkPeer("cursor", file, { servers: { ev: ["stdio", 3], remote: ["streamable-http", 1] } });
    const got = await cli(["mcp", "get", "ev", "--json", "--mcp", file]);
    expect(JSON.parse(got.stdout).env).toEqual({ DATA: `${sandbox.home}/data` });
  });

  it("Gemini CLI (~/.gemini/settings.json: httpUrl, $VAR, includeTools, timeout, trust)", async () => {
    const file = path.join(sandbox.home, ".gemini", "settings.json");
    write(
      file,
      JSON.stringify({
        theme: "Default",
        mcpServers: {
          ev: { ...local(), includeTools: ["echo", "show_app"], timeout: 30000, trust: true },
          remote: { httpUrl: proxyUrl, headers: { Authorization: "Bearer $API_TOKEN" } },
        },
      }),
    );
    await checkPeer("gemini", file, { servers: { ev: ["stdio", 2], remote: ["streamable-http", 1] } });
  });

  it("Codex (~/.codex/config.toml: mcp_servers, enabled_tools, bearer_token_env_var)", async () => {
    const file = path.join(sandbox.home, ".codex", "config.toml");
    write(
      file,
      `model = "o4-mini"

[mcp_servers.ev]
command = ${JSON.stringify(process.execPath)}
args = ${JSON.stringify(local().args)}
enabled_tools = ["echo"]
startup_timeout_sec = 30

[mcp_servers.remote]
url = "${proxyUrl}"
bearer_token_env_var = "API_TOKEN"
`,
    );
    await checkPeer("codex", file, { servers: { ev: ["stdio", 1], remote: ["streamable-http", 1] } });
  });

  it("opencode (opencode.json: mcp, local/remote, command arrays, {env:VAR})", async () => {
    const file = path.join(sandbox.cwd, "opencode.json");
    write(
      file,
      JSON.stringify({
        $schema: "https://opencode.ai/config.json",
        mcp: {
          ev: { type: "local", command: [process.execPath, ...local().args], enabled: true },
          remote: { type: "remote", url: proxyUrl, headers: { Authorization: "Bearer {env:API_TOKEN}" } },
        },
      }),
    );
    await checkPeer("opencode", file, { servers: { ev: ["stdio", 3], remote: ["streamable-http", 1] } });
  });

  it("Windsurf (~/.codeium/windsurf/mcp_config.json: serverUrl, ${env:X}, disabledTools)", async () => {
    const file = path.join(sandbox.home, ".codeium", "windsurf", "mcp_config.json");
    write(
      file,
      JSON.stringify({
        mcpServers: {
          ev: { ...local(), disabledTools: ["echo"] },
          remote: { serverUrl: proxyUrl, headers: { Authorization: "Bearer ${env:API_TOKEN}" } },
        },
      }),
    );
    await checkPeer("windsurf", file, { servers: { ev: ["stdio", 2], remote: ["streamable-http", 1] } });
  });
});

describe("import scope", () => {
  it("warns about a literal secret when importing into the project file, and suggests ${VAR}", async () => {
    write(
      path.join(sandbox.xdg, "Claude", "claude_desktop_config.json"),
      JSON.stringify({
        mcpServers: {
          gh: { command: "npx", env: { GITHUB_PERSONAL_ACCESS_TOKEN: "ghp_abcdefghijklmnopqrstuvwxyz0123456789" } },
        },
      }),
    );
    const result = await cli(["mcp", "import", "--from", "claude-desktop", "--scope", "project"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /warning: gh: env GITHUB_PERSONAL_ACCESS_TOKEN looks like a literal secret .*\$\{VAR\}/,
    );
    const user = await cli(["mcp", "import", "--from", "claude-desktop", "--force"]);
    expect(user.stderr).not.toContain("literal secret");
  });
});
