/**
 * `indusr mcp serve` answers a client's handshake (`initialize`, or a
 * 2026-07-28 `server/discover`) at once, whatever its mounted servers are
 * doing: a client's startup probe (Claude Code gives it ~2.7 s) never waits
 * for the slowest mount. Only what reads the mounts waits for them (up to the
 * boot wait): a `tools/list` sent while they connect returns their tools.
 * Proved by order, not by a clock: three mounts hold their own `initialize`
 * behind a gate file the test creates only after the gateway has answered;
 * and over stdio the answer comes before the gateway even reads its config
 * (so before the deck, the MCP client side or any mount has loaded).
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { BIN, makeSandbox, type Sandbox } from "./support/run-cli";
import { servedUrl, stopChild } from "./support/relay-client";
import { writeConfig } from "./support/servers";

jest.setTimeout(120_000);

const TINY = path.join(__dirname, "..", "..", "..", "packages", "testkit", "fixtures", "tiny-server.mjs");
const SERVE = ["mcp", "serve", "--no-builtins", "--profile", "survey"];

let sandbox: Sandbox;
let gate: string;
let config: string;
beforeEach(() => {
  // The sandbox's boot wait (120 s) outlasts the test: listings wait for every mount.
  sandbox = makeSandbox();
  gate = path.join(sandbox.root, "gate");
  // Trust off: a --stateless replica publishes only what shipped pins allow, and pinning is not the point here.
  const gated = (name: string) => ({ command: process.execPath, args: [TINY, name, `gate=${gate}`], trust: "off" });
  config = writeConfig(sandbox.root, { a: gated("a"), b: gated("b"), c: gated("c") });
});
afterEach(() => sandbox.cleanup());

type Era = "2025" | "2026";

function clientOf(era: Era): Client {
  return new Client(
    { name: "handshake", version: "1.0.0" },
    era === "2026" ? { capabilities: {}, versionNegotiation: { mode: { pin: "2026-07-28" } } } : { capabilities: {} },
  );
}

/** `indusr mcp serve --stdio` of the config at `mcpPath`, as a client spawns it. */
function serveOverStdio(mcpPath: string): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: [BIN, ...SERVE, "--stdio", "--mcp", mcpPath],
    cwd: sandbox.cwd,
    env: sandbox.env as Record<string, string>,
    stderr: "ignore",
  });
}

/**
 * Connects while the three mounts are held, then lists: the handshake was
 * answered with the gate still shut, and the listing sent then returns once
 * the gate opens, with every mount's tool.
 */
async function handshakeThenList(client: Client, connect: () => Promise<void>): Promise<string[]> {
  await connect();
  expect(fs.existsSync(gate)).toBe(false);
  expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
  const listing = client.listTools({}, { cacheMode: "bypass" });
  fs.writeFileSync(gate, "open");
  return (await listing).tools.map((tool) => tool.name).sort();
}

it.each<Era>(["2025", "2026"])(
  "over stdio, a %s-era client's handshake is answered while every mount is held",
  async (era) => {
    const client = clientOf(era);
    const transport = serveOverStdio(config);
    try {
      const names = await handshakeThenList(client, () => client.connect(transport));
      expect(names).toEqual(["a__echo", "b__echo", "c__echo"]);
    } finally {
      await client.close();
    }
  },
);

it("over stdio, a 2026-era client that asks server/discover again gets the instructions of the mounts that connected since", async () => {
  const said = {
    command: process.execPath,
    args: [TINY, "a", `gate=${gate}`, "instructions=Echo with a__echo."],
    trust: "off",
  };
  const saying = writeConfig(sandbox.root, { a: said });
  const client = clientOf("2026");
  const transport = serveOverStdio(saying);
  try {
    expect(await handshakeThenList(client, () => client.connect(transport))).toEqual(["a__echo"]);
    // Answered at once, the first handshake could not carry words of a mount still held.
    expect(client.getInstructions() ?? "").not.toContain("Echo with a__echo.");
    expect((await client.discover()).instructions).toContain("Echo with a__echo.");
  } finally {
    await client.close();
  }
});

it.each<[string, Era, string[]]>([
  ["stateful, a 2025-era client", "2025", []],
  ["stateful, a 2026-era client", "2026", []],
  ["--stateless, a 2026-era client", "2026", ["--stateless"]],
])("over HTTP (%s): the handshake is answered while every mount is held", async (_what, era, flags) => {
  const child = spawn(process.execPath, [BIN, ...SERVE, "--http", "--port", "0", ...flags, "--mcp", config], {
    cwd: sandbox.cwd,
    env: sandbox.env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  const client = clientOf(era);
  try {
    const url = await servedUrl(child);
    const names = await handshakeThenList(client, () => client.connect(new StreamableHTTPClientTransport(url)));
    expect(names).toEqual(["a__echo", "b__echo", "c__echo"]);
    const echoed = await client.callTool({ name: "b__echo", arguments: { message: "held no more" } });
    expect(echoed.content).toEqual([{ type: "text", text: "b: held no more" }]);
  } finally {
    await client.close().catch(() => undefined);
    await stopChild(child);
  }
});

/** The SDK client probes `server/discover` on a subclass's own process (its base class probes on a throwaway sibling). */
class InPlaceTransport extends StdioClientTransport {}

/**
 * A FIFO where the project's config goes, released at the end whatever happened: a gateway blocked reading it gets
 * an empty file, a write still waiting for a reader gets one.
 */
function configFifo(): { file: string; release(): void } {
  const file = path.join(sandbox.cwd, ".indusvx", "mcp.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  execFileSync("mkfifo", [file]);
  const touch = (flags: number) => {
    try {
      fs.closeSync(fs.openSync(file, flags | fs.constants.O_NONBLOCK));
    } catch {
      // Nobody on the other end: nothing to release.
    }
  };
  return { file, release: () => [fs.constants.O_WRONLY, fs.constants.O_RDONLY].forEach(touch) };
}

it.each<Era>(["2025", "2026"])(
  "over stdio, a %s-era client's handshake is answered before the gateway reads its config",
  async (era) => {
    // The config is a FIFO nobody writes until the client has its answer: reading it would hold the gateway's only
    // thread, so an answer at all proves the config unread, the deck unbooted and no mount spawned.
    const fifo = configFifo();
    const client = clientOf(era);
    const transport = new InPlaceTransport({
      command: process.execPath,
      args: [BIN, ...SERVE, "--stdio"],
      cwd: sandbox.cwd,
      env: sandbox.env as Record<string, string>,
      stderr: "ignore",
    });
    try {
      const started = performance.now();
      await client.connect(transport);
      // A figure, not a bound (bench/serve-first-answer.mjs compares it with a bare server's on the same machine).
      console.log(`${era}-era handshake done ${Math.round(performance.now() - started)} ms after spawn`);
      const tiny = { command: process.execPath, args: [TINY, "a"], trust: "off" };
      await fs.promises.writeFile(fifo.file, JSON.stringify({ servers: { a: tiny } }));
      const listed = await client.listTools({}, { cacheMode: "bypass" });
      expect(listed.tools.map((tool) => tool.name)).toEqual(["a__echo"]);
    } finally {
      fifo.release();
      await client.close();
    }
  },
);
