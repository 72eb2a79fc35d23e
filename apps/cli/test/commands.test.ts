import fs from "node:fs";
import path from "node:path";
import { makeSandbox, runCli, type Sandbox } from "./support/run-cli";
import { crashingRow, everythingRow, filesystemRow, fixtureRow, memoryRow, writeConfig } from "./support/servers";

jest.setTimeout(120_000);

/**
 * The dependency-free fixture server (testkit's tiny-server) for tests about the CLI's own handling, not about
 * a real server: its one tool, echo, takes server-everything's `{ message: string }` and answers "Echo: <message>"
 * as server-everything's does, and it starts in milliseconds where server-everything takes ~0.7 s of CPU.
 */
const echoRow = () => fixtureRow("tiny-server.mjs", "Echo");

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

describe("indusr tools", () => {
  it("lists built-ins, app cards and every mounted server's tools with their origin", async () => {
    const config = writeConfig(sandbox.root, {
      everything: everythingRow(),
      memory: memoryRow(path.join(sandbox.root, "mem.json")),
    });
    const result = await runCli(["tools", "--mcp", config], { sandbox });
    expect(result.code).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toMatch(/^NAME\s+ORIGIN\s+READ-ONLY\s+DESCRIPTION$/);
    expect(lines.find((l) => l.startsWith("read "))).toMatch(/^read\s+built-in\s+yes\s+\S/);
    expect(lines.find((l) => l.startsWith("bash "))).toMatch(/^bash\s+built-in\s+no\s+/);
    expect(lines.find((l) => l.startsWith("todo "))).toMatch(/^todo\s+app\s+no\s+/);
    expect(lines.find((l) => l.startsWith("everything__echo "))).toMatch(
      /^everything__echo\s+server\s+no\s+\[everything\] Echoes back/,
    );
    expect(lines.some((l) => l.startsWith("memory__create_entities "))).toBe(true);
    expect(result.stdout).toMatch(/tools \(2 of 2 MCP servers ready\)/);
    // Not a TTY: no progress lines on stderr.
    expect(result.stderr).toBe("");
  });

  it("gives full descriptors with --json", async () => {
    const config = writeConfig(sandbox.root, { everything: echoRow() });
    const result = await runCli(["tools", "--json", "--mcp", config], { sandbox });
    expect(result.code).toBe(0);
    const tools = JSON.parse(result.stdout) as { name: string; origin: string; parameters: unknown }[];
    const echo = tools.find((t) => t.name === "everything__echo");
    expect(echo?.origin).toBe("server");
    expect(echo?.parameters).toMatchObject({ type: "object", properties: { message: { type: "string" } } });
    expect(tools.filter((t) => t.origin === "built-in")).toHaveLength(12);
    expect(tools.filter((t) => t.origin === "app")).toHaveLength(7);
  });

  it("applies --tools to built-ins only, in either list form; MCP tools still attach", async () => {
    const config = writeConfig(sandbox.root, { everything: echoRow() });
    const joined = await runCli(["tools", "--json", "--tools", "read,Web-Fetch", "--mcp", config], { sandbox });
    const repeated = await runCli(["tools", "--json", "--tools", "read", "--tools", "webfetch", "--mcp", config], {
      sandbox,
    });
    const names = (r: { stdout: string }) => (JSON.parse(r.stdout) as { name: string }[]).map((t) => t.name);
    expect(names(joined)).toEqual(names(repeated));
    expect(names(joined).filter((n) => !n.includes("__"))).toEqual(["read", "webfetch"]);
    expect(names(joined)).toContain("everything__echo");
  });

  it("refuses an unknown --tools name with the names it offers", async () => {
    const result = await runCli(["tools", "--tools", "read,telepathy", "--mcp", writeConfig(sandbox.root, {})], {
      sandbox,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '--tools names "telepathy", which the all profile does not offer (it offers: read, ls,',
    );
  });

  it("has nothing at all with --no-tools, and starts no server", async () => {
    const config = writeConfig(sandbox.root, { everything: echoRow() });
    const result = await runCli(["tools", "--no-tools", "--mcp", config], { sandbox });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("0 tools");
  });

  it("narrows built-ins by --profile", async () => {
    const result = await runCli(["tools", "--json", "--profile", "authoring", "--mcp", writeConfig(sandbox.root, {})], {
      sandbox,
    });
    const tools = JSON.parse(result.stdout) as { name: string; readOnly: boolean }[];
    expect(tools.map((t) => t.name)).toEqual(["read", "ls", "grep", "find", "websearch", "webfetch", "todo_read"]);
    expect(tools.every((t) => t.readOnly)).toBe(true);
  });

  it("reports a server that fails and keeps the rest", async () => {
    const config = writeConfig(sandbox.root, { broken: crashingRow(), everything: echoRow() });
    const result = await runCli(["tools", "--mcp", config], { sandbox });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /warning: MCP server "broken" failed \((spawn-failed|transport|protocol)\): .+; its tools are skipped/,
    );
    expect(result.stdout).toContain("everything__echo");
    expect(result.stdout).toMatch(/1 of 2 MCP servers ready/);
  });

  it("refuses a malformed --mcp file with exit 2, naming the file and the reason", async () => {
    const file = path.join(sandbox.root, "broken.json");
    fs.writeFileSync(file, '{ "servers": [ { "name": "x", ');
    const result = await runCli(["tools", "--mcp", file], { sandbox });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`indusr: --mcp ${file}: malformed JSON`);
  });

  it("names the file and row of a bad server row, and loads the good ones", async () => {
    const file = writeConfig(sandbox.root, { good: echoRow(), bad: { url: "not a url" } });
    const result = await runCli(["tools", "--mcp", file], { sandbox });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      new RegExp(`warning: ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(servers\\.bad\\): .+`),
    );
    expect(result.stdout).toContain("good__echo");
  });

  it("refuses a missing --mcp file with exit 2 and the reason", async () => {
    const result = await runCli(["tools", "--mcp", path.join(sandbox.root, "nope.json")], { sandbox });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("nope.json: no such file or directory");
  });

  it("discovers the project config under the cwd when --mcp is absent", async () => {
    writeConfig(path.join(sandbox.cwd, ".indusvx"), { everything: echoRow() });
    const result = await runCli(["tools"], { sandbox });
    expect(result.stdout).toContain("everything__echo");
  });
});

describe("indusr call", () => {
  it("runs a remote tool and prints its text", async () => {
    const config = writeConfig(sandbox.root, { everything: everythingRow() });
    const result = await runCli(["call", "everything__echo", '{"message":"over the bridge"}', "--mcp", config], {
      sandbox,
    });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Echo: over the bridge\n");
  });

  it("runs a task-only tool to completion: the server's task is polled behind the call", async () => {
    const config = writeConfig(sandbox.root, { everything: everythingRow() });
    const result = await runCli(["call", "everything__simulate-research-query", '{"topic":"rust"}', "--mcp", config], {
      sandbox,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("# Research Report: rust");
  });

  it("runs a built-in in the cwd", async () => {
    fs.writeFileSync(path.join(sandbox.cwd, "notes.txt"), "first\nsecond\n");
    const result = await runCli(["call", "read", '{"path":"notes.txt"}', "--mcp", writeConfig(sandbox.root, {})], {
      sandbox,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/1\D+first/);
    expect(result.stdout).toMatch(/2\D+second/);
  });

  it("reads arguments from a file and from stdin", async () => {
    const config = writeConfig(sandbox.root, { everything: echoRow() });
    const argsFile = path.join(sandbox.root, "args.json");
    fs.writeFileSync(argsFile, '{"message":"from a file"}');
    const fromFile = await runCli(["call", "everything__echo", "--args-file", argsFile, "--mcp", config], { sandbox });
    expect(fromFile.stdout).toBe("Echo: from a file\n");
    const fromStdin = await runCli(["call", "everything__echo", "--args-file", "-", "--mcp", config], {
      sandbox,
      input: '{"message":"from stdin"}',
    });
    expect(fromStdin.stdout).toBe("Echo: from stdin\n");
  });

  it("prints the whole outcome with --json", async () => {
    const config = writeConfig(sandbox.root, { everything: echoRow() });
    const result = await runCli(["call", "everything__echo", '{"message":"j"}', "--json", "--mcp", config], {
      sandbox,
    });
    const printed = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(printed).toMatchObject({ isError: false, content: [{ type: "text", text: "Echo: j" }] });
    // The server's own copy of the result is for gateways; here it would only repeat the content.
    expect(printed).not.toHaveProperty("wire");
  });

  it("exits 1 when the tool reports an error", async () => {
    const result = await runCli(["call", "read", '{"path":"missing.txt"}', "--mcp", writeConfig(sandbox.root, {})], {
      sandbox,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/missing\.txt/);
  });

  it.each([
    [["call", "everything__echo", "{not json"], /the arguments are not valid JSON/],
    [["call", "everything__echo", "[1,2]"], /must be a JSON object/],
    [
      ["call", "everything__echo", "{}"],
      /arguments for everything__echo do not match its schema:\n {2}\/message is required/,
    ],
    [["call", "everything__echo", '{"message": 5}'], /\/message must be string/],
    [["call", "everything__ecko", "{}"], /no tool named "everything__ecko"; did you mean everything__echo\?/],
    [["call", "everything__echo", "{}", "--args-file", "x.json"], /inline or with --args-file, not both/],
    [["call", "everything__echo", "--args-file", "/nonexistent/args.json"], /cannot read --args-file/],
  ])("refuses %j with exit 2", async (args, message) => {
    const config = writeConfig(sandbox.root, { everything: echoRow() });
    const result = await runCli([...args, "--mcp", config], { sandbox });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe("");
  });

  it("names a tool that clashes across servers distinctly, both callable", async () => {
    // Two servers share a tool name; qualification keeps both callable.
    const config = writeConfig(sandbox.root, { a: echoRow(), b: echoRow() });
    const a = await runCli(["call", "a__echo", '{"message":"A"}', "--mcp", config], { sandbox });
    const b = await runCli(["call", "b__echo", '{"message":"B"}', "--mcp", config], { sandbox });
    expect([a.stdout, b.stdout]).toEqual(["Echo: A\n", "Echo: B\n"]);
  });
});

describe("indusr mcp list / get / show-merged", () => {
  it("lists servers with the file each came from, redacting secrets", async () => {
    writeConfig(path.join(sandbox.cwd, ".indusvx"), {
      fs: {
        command: "npx",
        args: ["-y", "@modelcontextprotocol/server-filesystem", "."],
        env: { GITHUB_TOKEN: "ghp_abcdefghijklmnopqrstuvwxyz123456", MODE: "dev" },
      },
    });
    writeConfig(path.join(sandbox.xdg, "indusvx"), {
      api: {
        url: "https://user:pw@api.example.com/mcp?api_key=s3cr3t&x=1",
        headers: { Authorization: "Bearer sk-live-123" },
        oauth: { clientId: "indus-cli", clientSecret: "oauth-s3cr3t-value" },
      },
    });
    const list = await runCli(["mcp", "list"], { sandbox });
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(
      new RegExp(
        `fs\\s+stdio\\s+${path.join(sandbox.cwd, ".indusvx", "mcp.json")}\\s+npx -y @modelcontextprotocol/server-filesystem \\.`,
      ),
    );
    expect(list.stdout).toMatch(
      /api\s+streamable-http\s+\S+xdg\/indusvx\/mcp\.json\s+https:\/\/\*\*\*:\*\*\*@api\.example\.com\/mcp\?api_key=\*\*\*&x=1/,
    );
    expect(list.stdout).not.toMatch(/s3cr3t|pw@/);

    const get = await runCli(["mcp", "get", "fs"], { sandbox });
    expect(get.stdout).toContain("env GITHUB_TOKEN=***");
    expect(get.stdout).toContain("env MODE=dev");
    const api = await runCli(["mcp", "get", "api", "--json"], { sandbox });
    expect(JSON.parse(api.stdout).headers).toEqual({ Authorization: "Bearer ***" });
    expect(JSON.parse(api.stdout).oauth).toEqual({ clientId: "indus-cli", clientSecret: "***" });

    const merged = await runCli(["mcp", "show-merged", "--json"], { sandbox });
    const parsed = JSON.parse(merged.stdout);
    expect(parsed.servers.map((s: { name: string }) => s.name)).toEqual(["fs", "api"]);
    expect(JSON.stringify(parsed)).not.toMatch(/ghp_|sk-live|s3cr3t/);
  });

  it("says so when a server is not configured", async () => {
    const result = await runCli(["mcp", "get", "ghost"], { sandbox });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no MCP server named "ghost" is configured');
  });
});

describe("indusr mcp status", () => {
  it("connects every server, reports each, shows a failed server's stderr and exits 1", async () => {
    const config = writeConfig(sandbox.root, {
      everything: everythingRow(),
      fs: filesystemRow(sandbox.cwd),
      memory: memoryRow(path.join(sandbox.root, "mem.json")),
      broken: crashingRow(),
    });
    const result = await runCli(["mcp", "status", "--mcp", config], { sandbox });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^SERVER\s+PHASE\s+ERA\s+TOOLS\s+TIME\s+FAULT/);
    expect(result.stdout).toMatch(/everything\s+ready\s+legacy\s+\d+\s+\d+ ms/);
    expect(result.stdout).toMatch(/fs\s+ready\s+legacy\s+\d+/);
    expect(result.stdout).toMatch(/memory\s+ready\s+legacy\s+\d+/);
    expect(result.stdout).toMatch(/broken\s+faulted\s+-\s+0\s+\d+ ms\s+\S+: /);
    expect(result.stdout).toContain("broken stderr (last 2 lines):\n  fatal: cannot open database\n  giving up");
    expect(result.stdout).toContain("3 of 4 servers ready");
  });

  it("gives JSON and exit 0 when all are ready", async () => {
    const config = writeConfig(sandbox.root, { everything: everythingRow() });
    const result = await runCli(["mcp", "status", "--json", "--mcp", config], { sandbox });
    expect(result.code).toBe(0);
    const [report] = JSON.parse(result.stdout);
    expect(report).toMatchObject({
      name: "everything",
      phase: "ready",
      transport: "stdio",
      fault: null,
      warnings: [],
      era: "legacy",
    });
    expect(report.tools).toBeGreaterThan(5);
  });

  it("reports an unreachable HTTP server as a transport fault", async () => {
    const config = writeConfig(sandbox.root, { remote: { url: "http://127.0.0.1:9/mcp", startupTimeoutMs: 5000 } });
    const result = await runCli(["mcp", "status", "--json", "--mcp", config], { sandbox });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)[0]).toMatchObject({
      name: "remote",
      phase: "faulted",
      fault: { kind: "transport" },
    });
  });
});

describe("indusr mcp logs", () => {
  it("shows a server's stderr captured during a run", async () => {
    const config = writeConfig(sandbox.root, { broken: crashingRow() });
    const logDir = path.join(sandbox.root, "logs");
    await runCli(["mcp", "status", "--mcp", config, "--log-dir", logDir], { sandbox });
    const logs = await runCli(["mcp", "logs", "broken", "--log-dir", logDir], { sandbox });
    expect(logs.code).toBe(0);
    expect(logs.stdout).toContain("fatal: cannot open database");
    const last = await runCli(["mcp", "logs", "broken", "--log-dir", logDir, "-n", "1"], { sandbox });
    expect(last.stdout.trim().split("\n")).toHaveLength(1);
    const none = await runCli(["mcp", "logs", "ghost", "--log-dir", logDir], { sandbox });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('no log for "ghost"');
    expect(none.stderr).toContain("logs exist for: broken");
  });
});
