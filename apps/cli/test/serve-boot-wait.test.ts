/**
 * `indusr mcp serve` starts serving once every mounted server has settled or
 * the boot wait (`--boot-wait`, 3 s by default) has passed: a server that
 * hangs at startup must not hold the healthy ones hostage for its whole
 * startup timeout (Codex gives an MCP server 10 s, Claude Code waits ~2.9 s
 * for its server/discover probe). Servers still connecting join later, announced by
 * list_changed; one that fails later is warned about on stderr.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { BIN, makeSandbox, type Sandbox } from "./support/run-cli";
import { servedUrl, stopChild } from "./support/relay-client";
import { fixtureRow, writeConfig } from "./support/servers";

jest.setTimeout(120_000);

const fixture = fixtureRow;

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
  // The sandbox waits for every server by default; these tests are about the boot wait.
  delete sandbox.env.INDUSR_BOOT_WAIT_MS;
});
afterEach(() => sandbox.cleanup());

/** A 2025-era client on `indusr mcp serve --stdio`, with the gateway's stderr collected. */
function stdioClient(config: string, flags: string[] = []) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "mcp", "serve", "--stdio", "--no-builtins", "--profile", "survey", ...flags, "--mcp", config],
    cwd: sandbox.cwd,
    env: sandbox.env as Record<string, string>,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: "boot-wait", version: "1.0.0" }, { capabilities: {} });
  return { client, transport, stderr: () => stderr };
}

/** `late` (modern-server.mjs `gate=`) stays silent until the test opens its gate: slower than any boot wait. */
const gate = () => path.join(sandbox.root, "late.gate");
const openGate = () => fs.writeFileSync(gate(), "");

/** Waits for `check` to hold (the event); Jest's per-test ceiling catches a hang. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** Counts `notifications/tools/list_changed`. */
function changeCounter(client: Client): () => number {
  let changed = 0;
  client.setNotificationHandler("notifications/tools/list_changed", () => {
    changed += 1;
  });
  return () => changed;
}

/**
 * The tool names once `name` is among them: listed now, or after the next
 * list_changed (and the next, ...): a server that was not ready yet must be
 * announced before it shows up.
 */
async function listedWith(client: Client, changes: () => number, name: string): Promise<string[]> {
  for (;;) {
    const seen = changes();
    const names = (await client.listTools({}, { cacheMode: "bypass" })).tools.map((tool) => tool.name);
    if (names.includes(name)) return names;
    await until(() => changes() > seen);
  }
}

it("answers initialize and tools/list within the boot wait while a mounted server never initializes", async () => {
  // `hung`'s own deadline is far past the test's ceiling, so it is still connecting whatever the load; `late`
  // never initializes either and fails at its 4 s deadline (1 s past the boot wait), whenever that comes in the
  // test: its failure is the test's longest wait.
  const config = writeConfig(sandbox.root, {
    hung: { ...fixture("never-initializes.mjs"), startupTimeoutMs: 600_000 },
    late: { ...fixture("never-initializes.mjs"), startupTimeoutMs: 4_000 },
    tiny: fixture("tiny-server.mjs", "tiny"),
  });
  const { client, transport, stderr } = stdioClient(config);
  const changes = changeCounter(client);
  try {
    await client.connect(transport);
    await client.listTools();
    await expect(client.callTool({ name: "hung__anything", arguments: {} })).rejects.toThrow(
      'Unknown tool: hung__anything (server "hung" is still connecting: its tools join when it is ready)',
    );
    // Tiny is ready well within the boot wait (on a loaded machine it may join just after, announced).
    expect(await listedWith(client, changes, "tiny__echo")).toEqual(["tiny__echo"]);
    expect(stderr()).not.toMatch(/hung/);
    // Once late's startup deadline passes, stderr names its failure (once).
    await until(() => /MCP server "late" failed \(timeout\)/.test(stderr()));
    const echoed = await client.callTool({ name: "tiny__echo", arguments: { message: "still here" } });
    expect(echoed.content).toEqual([{ type: "text", text: "tiny: still here" }]);
    // Still once after a later round trip through the gateway.
    expect(stderr().match(/MCP server "late" failed \(timeout\)/g)).toHaveLength(1);
    expect(stderr()).not.toMatch(/hung/);
  } finally {
    await client.close();
  }
});

it("rejects a --boot-wait (or INDUSR_BOOT_WAIT_MS) that is not a number of milliseconds", async () => {
  const config = writeConfig(sandbox.root, { tiny: fixture("tiny-server.mjs") });
  const refusal = async (flags: string[], env: NodeJS.ProcessEnv) => {
    const child = spawn(process.execPath, [BIN, "mcp", "serve", "--stdio", ...flags, "--mcp", config], {
      cwd: sandbox.cwd,
      env: { ...sandbox.env, ...env },
      stdio: ["pipe", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    return { code, stderr };
  };
  const flag = await refusal(["--boot-wait", "soon"], {});
  expect(flag.code).toBe(2);
  expect(flag.stderr).toMatch(/--boot-wait must be a whole number of milliseconds \(0 or more\), not "soon"/);
  const env = await refusal([], { INDUSR_BOOT_WAIT_MS: "-1" });
  expect(env.code).toBe(2);
  expect(env.stderr).toMatch(/INDUSR_BOOT_WAIT_MS must be a whole number of milliseconds \(0 or more\), not "-1"/);
});

it("a server slower than the boot wait joins later over stdio: tools/list_changed, then its tool is listed and called", async () => {
  const config = writeConfig(sandbox.root, {
    tiny: fixture("tiny-server.mjs", "tiny"),
    late: fixture("modern-server.mjs", `gate=${gate()}`),
  });
  const { client, transport } = stdioClient(config, ["--boot-wait", "2000"]);
  const changes = changeCounter(client);
  try {
    await client.connect(transport);
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain("late__echo");
    openGate();
    const names = await listedWith(client, changes, "late__echo");
    expect(changes()).toBeGreaterThan(0);
    expect(names).toEqual(expect.arrayContaining(["tiny__echo", "late__echo"]));
    const echoed = await client.callTool({ name: "late__echo", arguments: { message: "joined" } });
    expect(JSON.stringify(echoed.content)).toContain("joined");
  } finally {
    await client.close();
  }
});

it("a server slower than the boot wait joins later over HTTP for a 2026-07-28 client listening for changes", async () => {
  const config = writeConfig(sandbox.root, {
    tiny: fixture("tiny-server.mjs", "tiny"),
    late: fixture("modern-server.mjs", `gate=${gate()}`),
  });
  const child = spawn(
    process.execPath,
    [
      BIN,
      "mcp",
      "serve",
      "--http",
      "--port",
      "0",
      "--no-builtins",
      "--profile",
      "survey",
      "--boot-wait",
      "2000",
      "--mcp",
      config,
    ],
    { cwd: sandbox.cwd, env: sandbox.env, stdio: ["ignore", "ignore", "pipe"] },
  );
  const client = new Client(
    { name: "boot-wait-2026", version: "1.0.0" },
    { capabilities: {}, versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  const changes = changeCounter(client);
  try {
    const url = await servedUrl(child);
    await client.connect(new StreamableHTTPClientTransport(url));
    const subscription = await client.listen({ toolsListChanged: true });
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain("late__echo");
    openGate();
    const names = await listedWith(client, changes, "late__echo");
    await subscription.close();
    expect(changes()).toBeGreaterThan(0);
    expect(names).toEqual(expect.arrayContaining(["tiny__echo", "late__echo"]));
    const echoed = await client.callTool({ name: "late__echo", arguments: { message: "joined" } });
    expect(JSON.stringify(echoed.content)).toContain("joined");
  } finally {
    await client.close().catch(() => undefined);
    await stopChild(child);
  }
});

it("--names as-is: a server joining after the boot wait with a clashing name is warned about, and the first server keeps it", async () => {
  const config = writeConfig(sandbox.root, {
    tiny: fixture("tiny-server.mjs", "tiny"),
    late: fixture("modern-server.mjs", `gate=${gate()}`),
  });
  const { client, transport, stderr } = stdioClient(config, ["--names", "as-is", "--boot-wait", "2000"]);
  try {
    await client.connect(transport);
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain("region");
    openGate();
    await until(() => /"tiny" keeps it/.test(stderr()));
    expect(stderr()).toContain('indusr: warning: servers "tiny" and "late" both offer tool "echo"; "tiny" keeps it');
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names.filter((name) => name === "echo")).toHaveLength(1);
    expect(names).toContain("region");
    const echoed = await client.callTool({ name: "echo", arguments: { message: "who" } });
    expect(echoed.content).toEqual([{ type: "text", text: "tiny: who" }]);
  } finally {
    await client.close();
  }
});

it("a client leaving while a server still connects ends the gateway without warning that server failed", async () => {
  const config = writeConfig(sandbox.root, {
    hung: fixture("never-initializes.mjs"),
    tiny: fixture("tiny-server.mjs", "tiny"),
  });
  const { client, transport, stderr } = stdioClient(config, ["--boot-wait", "2000"]);
  await client.connect(transport);
  await client.listTools();
  const pid = transport.pid;
  await client.close();
  await until(() => {
    try {
      process.kill(pid!, 0);
      return false;
    } catch {
      return true;
    }
  });
  expect(stderr()).not.toMatch(/hung/);
});

it("each server failing after serving began is warned about when it fails, not when the slowest one settles", async () => {
  const config = writeConfig(sandbox.root, {
    early: { ...fixture("never-initializes.mjs"), startupTimeoutMs: 4_000 },
    later: { ...fixture("never-initializes.mjs"), startupTimeoutMs: 600_000 },
    tiny: fixture("tiny-server.mjs", "tiny"),
  });
  const { client, transport, stderr } = stdioClient(config, ["--boot-wait", "2000"]);
  try {
    await client.connect(transport);
    await client.listTools();
    await until(() => /MCP server "early" failed/.test(stderr()));
    expect(stderr()).not.toMatch(/"later"/);
  } finally {
    await client.close();
  }
});
