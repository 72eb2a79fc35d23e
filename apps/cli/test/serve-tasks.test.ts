/**
 * A 2026-07-28 client of `indusr mcp serve --stdio` with a mounted server
 * offering the Tasks extension (examples/extensions/tasks-server.mjs): the
 * gateway answers the handshake before its mounts connect, yet declares the
 * extension from its first answer (it relays tasks: a call no mounted server
 * runs as a task gets a plain result), so a client that discovers once knows
 * to declare tasks on its calls; a task-augmented call through the gateway
 * comes back as a task the client follows to its result.
 */
import path from "node:path";
import { createServerEndpoint } from "@indus/endpoint";
import { EXTENSIONS, stdioServer, type TaskView } from "@indus/contract";
import { UNHURRIED_DEADLINES } from "@indus/testkit";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { BIN, makeSandbox, type Sandbox } from "./support/run-cli";
import { writeConfig } from "./support/servers";

jest.setTimeout(120_000);

const TASKS_SERVER = path.join(__dirname, "..", "..", "..", "examples", "extensions", "tasks-server.mjs");
const SERVE = ["mcp", "serve", "--no-builtins", "--profile", "survey", "--stdio"];

let sandbox: Sandbox;
let config: string;
beforeEach(() => {
  sandbox = makeSandbox();
  const row = { command: process.execPath, args: [TASKS_SERVER, "--stdio", "--poll-ms", "50"], trust: "off" };
  config = writeConfig(sandbox.root, { tasks: row });
});
afterEach(() => sandbox.cleanup());

/** `indusr mcp serve --stdio` as an SDK client's transport. */
const gatewayTransport = () =>
  new StdioClientTransport({
    command: process.execPath,
    args: [BIN, ...SERVE, "--mcp", config],
    cwd: sandbox.cwd,
    env: sandbox.env as Record<string, string>,
    stderr: "ignore",
  });

/** `indusr mcp serve --stdio` mounted by `@indus/endpoint` as a 2026-07-28 server named `gw`. */
const gatewayEndpoint = () =>
  createServerEndpoint({
    ...stdioServer("gw", process.execPath, [BIN, ...SERVE, "--mcp", config], sandbox.env as Record<string, string>),
    ...UNHURRIED_DEADLINES,
    cwd: sandbox.cwd,
    protocol: "2026-07-28",
  });

it("over stdio, a 2026-era client's server/discover declares the Tasks extension once the mount offering it is there", async () => {
  const client = new Client(
    { name: "tasks", version: "1.0.0" },
    { capabilities: {}, versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  const transport = gatewayTransport();
  try {
    await client.connect(transport);
    // A listing waits for the box: the mount has connected once it returns.
    const tools = await client.listTools({}, { cacheMode: "bypass" });
    expect(tools.tools.map((tool) => tool.name)).toContain("tasks__slow_compute");
    const discovered = await client.discover();
    expect(discovered.capabilities.extensions).toHaveProperty([EXTENSIONS.tasks]);
  } finally {
    await client.close();
  }
});

it("over stdio, a task-augmented call through the gateway is a task the client follows to its result", async () => {
  const endpoint = gatewayEndpoint();
  try {
    await endpoint.open();
    const views: TaskView[] = [];
    const result = await endpoint.invoke(
      "tasks__slow_compute",
      { seconds: 1, label: "through" },
      { onTask: (view) => views.push(view) },
    );
    expect(result.isError).toBe(false);
    expect(result.content).toEqual([{ type: "text", text: "computed through in 1 s" }]);
    expect(views.at(-1)).toMatchObject({ server: "gw", status: "completed" });
  } finally {
    await endpoint.close();
  }
});

it("over stdio, a client that discovers once learns of the Tasks extension and follows a task-augmented call", async () => {
  const endpoint = gatewayEndpoint();
  try {
    await endpoint.open();
    // As the ext-tasks client adapter does: whether to declare tasks is read once, from the handshake's answer.
    const offered = endpoint.serverCapabilities?.extensions?.[EXTENSIONS.tasks] !== undefined;
    const views: TaskView[] = [];
    const result = await endpoint.invoke(
      "tasks__slow_compute",
      { seconds: 1, label: "once" },
      { tasks: offered ? "drive" : "off", onTask: (view) => views.push(view) },
    );
    expect(result.content).toEqual([{ type: "text", text: "computed once in 1 s" }]);
    expect(views.at(-1)).toMatchObject({ server: "gw", status: "completed" });
  } finally {
    await endpoint.close();
  }
});

it("over stdio, a 2025-era client's initialize is not told of the Tasks extension", async () => {
  const client = new Client(
    { name: "tasks", version: "1.0.0" },
    { capabilities: {}, versionNegotiation: { mode: "legacy" } },
  );
  const transport = gatewayTransport();
  try {
    await client.connect(transport);
    expect(client.getServerCapabilities()?.extensions ?? {}).not.toHaveProperty([EXTENSIONS.tasks]);
  } finally {
    await client.close();
  }
});
