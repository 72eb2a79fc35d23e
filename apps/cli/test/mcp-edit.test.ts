import fs from "node:fs";
import path from "node:path";
import { makeSandbox, runCli, type Sandbox } from "./support/run-cli";

jest.setTimeout(60_000);

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

const projectFile = () => path.join(sandbox.cwd, ".indusvx", "mcp.json");
const userFile = () => path.join(sandbox.xdg, "indusvx", "mcp.json");
const readJson = (file: string) => JSON.parse(fs.readFileSync(file, "utf8"));

describe("indusr mcp add", () => {
  it("adds a stdio server to the project file, args and env included", async () => {
    const result = await runCli(
      [
        "mcp",
        "add",
        "fs",
        "-e",
        "ROOT=/tmp",
        "-e",
        "DEBUG=1",
        "--",
        "npx",
        "-y",
        "@modelcontextprotocol/server-filesystem",
        ".",
      ],
      { sandbox },
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Added stdio server fs to ${projectFile()}`);
    expect(readJson(projectFile())).toEqual({
      servers: {
        fs: {
          command: "npx",
          args: ["-y", "@modelcontextprotocol/server-filesystem", "."],
          env: { ROOT: "/tmp", DEBUG: "1" },
        },
      },
    });
  });

  it("adds a remote server to the user file with headers and an explicit SSE transport", async () => {
    const result = await runCli(
      [
        "mcp",
        "add",
        "api",
        "--scope",
        "user",
        "--url",
        "https://example.com/sse",
        "-t",
        "sse",
        "-H",
        "Authorization: Bearer ${API_TOKEN}",
      ],
      { sandbox },
    );
    expect(result.code).toBe(0);
    expect(readJson(userFile())).toEqual({
      servers: {
        api: { url: "https://example.com/sse", transport: "sse", headers: { Authorization: "Bearer ${API_TOKEN}" } },
      },
    });
  });

  it("keeps unrelated keys, comments and formatting of an existing file", async () => {
    fs.mkdirSync(path.dirname(projectFile()), { recursive: true });
    const original =
      '{\n    // my servers\n    "theme": "dark",\n    "mcpServers": {\n        "old": { "command": "node", "args": ["old.js"] }\n    }\n}\n';
    fs.writeFileSync(projectFile(), original);
    const result = await runCli(["mcp", "add", "new", "--", "node", "new.js"], { sandbox });
    expect(result.code).toBe(0);
    const text = fs.readFileSync(projectFile(), "utf8");
    expect(
      text.startsWith(
        '{\n    // my servers\n    "theme": "dark",\n    "mcpServers": {\n        "old": { "command": "node", "args": ["old.js"] },',
      ),
    ).toBe(true);
    expect(text).toContain('        "new": {\n            "command": "node",');
  });

  it("refuses a duplicate name unless --force, leaving the file as it was", async () => {
    await runCli(["mcp", "add", "fs", "--", "node", "a.js"], { sandbox });
    const before = fs.readFileSync(projectFile(), "utf8");
    const again = await runCli(["mcp", "add", "fs", "--", "node", "b.js"], { sandbox });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`${projectFile()}: a server named "fs" already exists`);
    expect(fs.readFileSync(projectFile(), "utf8")).toBe(before);
    const forced = await runCli(["mcp", "add", "fs", "--force", "--", "node", "b.js"], { sandbox });
    expect(forced.code).toBe(0);
    expect(readJson(projectFile()).servers.fs.args).toEqual(["b.js"]);
  });

  it("never touches a malformed file", async () => {
    fs.mkdirSync(path.dirname(projectFile()), { recursive: true });
    fs.writeFileSync(projectFile(), '{ "servers": { "a": ');
    const result = await runCli(["mcp", "add", "fs", "--", "node", "a.js"], { sandbox });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/is not valid JSON \(.+ at line 1\); left unchanged/);
    expect(fs.readFileSync(projectFile(), "utf8")).toBe('{ "servers": { "a": ');
  });

  it("reports a read-only config directory and loses nothing", async () => {
    fs.mkdirSync(path.dirname(projectFile()), { recursive: true });
    fs.writeFileSync(projectFile(), '{"servers":{}}\n');
    fs.chmodSync(path.dirname(projectFile()), 0o555);
    fs.chmodSync(projectFile(), 0o444);
    // Root ignores permissions: run as an unprivileged user then, as a real user would be.
    const result = await runCli(["mcp", "add", "fs", "--", "node", "a.js"], { sandbox, asUser: true });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${projectFile()}: cannot write`);
    expect(result.stderr).toContain("the file is unchanged");
    expect(fs.readFileSync(projectFile(), "utf8")).toBe('{"servers":{}}\n');
    expect(fs.readdirSync(path.dirname(projectFile()))).toEqual(["mcp.json"]);
  });

  it.each([
    [["mcp", "add", "2bad", "--", "node"], /server name "2bad" must start with a letter/],
    [["mcp", "add", "fs"], /give the server's command after --/],
    [["mcp", "add", "fs", "--url", "ftp://x"], /--url must be http/],
    [["mcp", "add", "fs", "--url", "nope"], /--url "nope" is not a URL/],
    [["mcp", "add", "fs", "-e", "NOEQUALS", "--", "node"], /-e\/--env "NOEQUALS" is not KEY=VALUE/],
    [["mcp", "add", "fs", "-H", "X-A: 1", "--", "node"], /-H\/--header applies to --url servers/],
    [["mcp", "add", "fs", "--url", "http://x/mcp", "--", "node"], /either --url or a command/],
    [["mcp", "add", "fs", "--scope", "global", "--", "node"], /Allowed choices are project, user/],
  ])("rejects %j with exit 2", async (args, message) => {
    const result = await runCli(args, { sandbox });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(fs.existsSync(projectFile())).toBe(false);
  });
});

describe("indusr mcp remove", () => {
  it("removes from whichever file has the server", async () => {
    await runCli(["mcp", "add", "keep", "--", "node", "k.js"], { sandbox });
    await runCli(["mcp", "add", "gone", "--scope", "user", "--", "node", "g.js"], { sandbox });
    const result = await runCli(["mcp", "remove", "gone"], { sandbox });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Removed gone from ${userFile()}`);
    expect(readJson(userFile())).toEqual({ servers: {} });
    expect(Object.keys(readJson(projectFile()).servers)).toEqual(["keep"]);
  });

  it("says where it looked when no file has the server", async () => {
    const result = await runCli(["mcp", "remove", "ghost"], { sandbox });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`no server named "ghost" in ${projectFile()}, ${userFile()}`);
  });
});
