import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import path from "node:path";
import { FIXTURES, waitFor } from "@indus/testkit";
import { gatewayInstructions } from "../src/commands/served-deck";
import { BIN, makeSandbox, runCli, type Sandbox } from "./support/run-cli";
import { writeConfig } from "./support/servers";

// `indusr mcp serve --names as-is`: a gateway standing in for its servers,
// against real fixture servers and a real MCP client.

jest.setTimeout(120_000);

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

/** The dependency-free fixture: one `echo` tool (fixtures/tiny-server.mjs). */
const tinyRow = (id: string) => ({ command: process.execPath, args: [path.join(FIXTURES, "tiny-server.mjs"), id] });
/** Tools alpha, beta and swap (fixtures/changing-server.mjs). */
const changingRow = () => ({ command: process.execPath, args: [path.join(FIXTURES, "changing-server.mjs")] });

it("refuses to start, naming both servers and the tool, when two servers offer one tool name", async () => {
  const config = writeConfig(sandbox.root, { first: tinyRow("first"), second: tinyRow("second") });
  const result = await runCli(["mcp", "serve", "--http", "--port", "0", "--names", "as-is", "--mcp", config], {
    sandbox,
  });
  expect(result.code).toBe(1);
  expect(result.stderr).toContain(
    'cannot serve with --names as-is: servers "first" and "second" both offer tool "echo"',
  );
  expect(result.stderr).toContain("--names prefixed");
  expect(result.stderr).not.toContain("serving");
});

/** A real v2 client talking to `mcp serve --names as-is` (no built-ins unless asked) over stdio, and the gateway's stderr. */
async function asIsClient(
  config: string,
  { builtins = false } = {},
): Promise<{ client: Client; stderr: () => string }> {
  const client = new Client({ name: "names-test", version: "1.0.0" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    // Naming is the point here: every mounted tool is published (the default profile publishes only read-only ones).
    args: [
      BIN,
      "mcp",
      "serve",
      "--stdio",
      "--names",
      "as-is",
      "--profile",
      "survey",
      ...(builtins ? [] : ["--no-builtins"]),
      "--mcp",
      config,
    ],
    cwd: sandbox.cwd,
    env: sandbox.env as Record<string, string>,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

it("publishes the servers' own tool names to a real client, and only theirs with --no-builtins", async () => {
  const config = writeConfig(sandbox.root, { tiny: tinyRow("tiny"), changing: changingRow() });
  const { client, stderr } = await asIsClient(config);
  try {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["alpha", "beta", "echo", "swap"]);
    const echoed = await client.callTool({ name: "echo", arguments: { message: "as-is" } });
    expect(echoed.isError).not.toBe(true);
    expect(JSON.stringify(echoed.content)).toContain("as-is");
    const alpha = await client.callTool({ name: "alpha", arguments: { text: "x" } });
    expect(alpha.content).toEqual([{ type: "text", text: "alpha:x" }]);
  } finally {
    await client.close();
  }
  expect(stderr()).not.toContain("cannot serve");
});

it("keeps the first server's tool and warns when a later list change brings a clash", async () => {
  // Under the default trust, a tool that appears mid-session is pinned at first sight and announced.
  const late = (id: string) => ({ command: process.execPath, args: [path.join(FIXTURES, "late-tool-server.mjs"), id] });
  const config = writeConfig(sandbox.root, { a: late("a"), b: late("b") });
  const { client, stderr } = await asIsClient(config);
  try {
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(["arm_a", "arm_b"]);
    // Each arm adds a tool named "late" and announces tools/list_changed: a first, then b.
    await client.callTool({ name: "arm_a", arguments: {} });
    await waitFor('tool "late" listed', async () =>
      (await client.listTools()).tools.some((tool) => tool.name === "late"),
    );
    await client.callTool({ name: "arm_b", arguments: {} });
    await waitFor("a warning and a note on stderr", () => stderr().includes("warning") && stderr().includes("note"));
    expect(stderr()).toContain('indusr: warning: servers "a" and "b" both offer tool "late"; "a" keeps it');
    expect(stderr()).toContain('indusr: note: tool "late" of server "a" was added since pinned');
    const called = await client.callTool({ name: "late", arguments: {} });
    expect(called.content).toEqual([{ type: "text", text: "late from a" }]);
  } finally {
    await client.close();
  }
});

it("warns when a later list change brings a tool named like a built-in, which keeps the name", async () => {
  const config = writeConfig(sandbox.root, {
    a: { command: process.execPath, args: [path.join(FIXTURES, "late-tool-server.mjs"), "a", "read"] },
  });
  const { client, stderr } = await asIsClient(config, { builtins: true });
  try {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["read", "arm_a"]));
    await client.callTool({ name: "arm_a", arguments: {} });
    await waitFor("a warning on stderr", () => stderr().includes("warning"));
    expect(stderr()).toContain(
      'indusr: warning: server "a" offers tool "read", which indusr\'s built-in of that name hides',
    );
    expect(stderr()).toContain("the built-in keeps it");
  } finally {
    await client.close();
  }
});

it("documents --names and --no-builtins in mcp serve --help", async () => {
  const result = await runCli(["mcp", "serve", "--help"], { sandbox });
  expect(result.code).toBe(0);
  expect(result.stdout).toMatch(/--names <mode>[\s\S]*prefixed[\s\S]*as-is/);
  expect(result.stdout).toContain("--no-builtins");
});

it("words the gateway's instructions for the naming mode", () => {
  const one = [
    { id: "docs", transport: "stdio", phase: "ready" as const, toolCount: 1, instructions: "Search first." },
  ];
  expect(gatewayInstructions(one, "as-is")).toBe("Search first.");
  expect(gatewayInstructions(one, "prefixed")).toBe(
    'Tools named docs__* come from the "docs" server; its notes, in its own words:\n<server-text from="docs">\nSearch first.\n</server-text>',
  );
  const two = [...one, { id: "quiet", transport: "stdio", phase: "ready" as const, toolCount: 1 }];
  expect(gatewayInstructions(two, "as-is")).toBe(
    'The "docs" server (its tools keep their own names); its notes, in its own words:\n<server-text from="docs">\nSearch first.\n</server-text>',
  );
});
