import fs from "node:fs";
import path from "node:path";
import { makeSandbox, runCli, type Sandbox } from "./support/run-cli";

jest.setTimeout(60_000);

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

// `mcp import` writes the user file unless --scope project.
const projectFile = () => path.join(sandbox.xdg, "indusvx", "mcp.json");
const write = (file: string, value: unknown) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, typeof value === "string" ? value : JSON.stringify(value, null, 2));
};

describe("indusr mcp import", () => {
  it("imports Claude Desktop servers, keeping ${VAR} references unexpanded", async () => {
    write(path.join(sandbox.xdg, "Claude", "claude_desktop_config.json"), {
      mcpServers: {
        github: {
          command: "npx",
          args: ["-y", "@modelcontextprotocol/server-github"],
          env: { GITHUB_TOKEN: "${GITHUB_TOKEN}" },
        },
        remote: { type: "http", url: "https://mcp.example.com/mcp" },
      },
    });
    const dry = await runCli(["mcp", "import", "--from", "claude-desktop", "--dry-run"], { sandbox });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("github: would be added");
    expect(fs.existsSync(projectFile())).toBe(false);

    const real = await runCli(["mcp", "import", "--from", "claude-desktop"], { sandbox });
    expect(real.code).toBe(0);
    const written = JSON.parse(fs.readFileSync(projectFile(), "utf8"));
    expect(written.servers.github.env).toEqual({ GITHUB_TOKEN: "${GITHUB_TOKEN}" });
    expect(written.servers.remote).toEqual({ transport: "streamable-http", url: "https://mcp.example.com/mcp" });

    const listed = await runCli(["mcp", "list", "--json"], { sandbox, env: { GITHUB_TOKEN: "t" } });
    expect(JSON.parse(listed.stdout).map((s: { name: string; transport: string }) => [s.name, s.transport])).toEqual([
      ["github", "stdio"],
      ["remote", "streamable-http"],
    ]);
    // Without the variable the server is refused, naming the placeholder, never started with "".
    const unset = await runCli(["mcp", "list", "--json"], { sandbox });
    expect(JSON.parse(unset.stdout).map((s: { name: string }) => s.name)).toEqual(["remote"]);
    expect(unset.stderr).toContain("${GITHUB_TOKEN}: environment variable GITHUB_TOKEN is not set");
  });

  it("imports Claude Code's project .mcp.json and VS Code's mcp.json, rewriting ${env:X}", async () => {
    write(path.join(sandbox.cwd, ".mcp.json"), { mcpServers: { cc: { command: "node", args: ["cc.js"] } } });
    const cc = await runCli(["mcp", "import", "--from", "claude-code"], { sandbox });
    expect(cc.code).toBe(0);
    write(
      path.join(sandbox.cwd, ".vscode", "mcp.json"),
      '{\n  // VS Code\n  "servers": { "vs": { "type": "stdio", "command": "node", "env": { "KEY": "${env:MY_KEY}" } } }\n}',
    );
    const vs = await runCli(["mcp", "import", "--from", "vscode"], { sandbox });
    expect(vs.code).toBe(0);
    const written = JSON.parse(fs.readFileSync(projectFile(), "utf8"));
    expect(Object.keys(written.servers)).toEqual(["cc", "vs"]);
    expect(written.servers.vs.env).toEqual({ KEY: "${MY_KEY}" });
  });

  it("skips names already configured unless --force", async () => {
    write(path.join(sandbox.home, ".cursor", "mcp.json"), {
      mcpServers: { dup: { command: "node", args: ["new.js"] } },
    });
    write(projectFile(), { servers: { dup: { command: "node", args: ["old.js"] } } });
    const skipped = await runCli(["mcp", "import", "--from", "cursor"], { sandbox });
    expect(skipped.stdout).toContain("dup: skipped");
    expect(JSON.parse(fs.readFileSync(projectFile(), "utf8")).servers.dup.args).toEqual(["old.js"]);
    const forced = await runCli(["mcp", "import", "--from", "cursor", "--force"], { sandbox });
    expect(forced.stdout).toContain("dup: replaced");
    expect(JSON.parse(fs.readFileSync(projectFile(), "utf8")).servers.dup.args).toEqual(["new.js"]);
  });

  it("reports invalid rows and a missing source", async () => {
    write(path.join(sandbox.home, ".gemini", "settings.json"), {
      mcpServers: { "bad name": { command: "x" }, empty: {} },
    });
    const result = await runCli(["mcp", "import", "--from", "gemini"], { sandbox });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("bad name: invalid");
    expect(result.stdout).toMatch(/empty: invalid .+ needs a command/);
    const none = await runCli(["mcp", "import", "--from", "cursor"], { sandbox });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("no cursor MCP servers found (looked in");
  });

  it("requires --from", async () => {
    const result = await runCli(["mcp", "import"], { sandbox });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--from <client>");
  });
});
