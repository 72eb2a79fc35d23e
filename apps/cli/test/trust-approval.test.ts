/**
 * Trust in what starts: approvals of another tool's project file are bound to
 * each row's content (a changed command or a new row does not start until
 * approved again, and the commands say what changed), the machine's managed
 * policy stops a denied server on every path a server can come by, and a
 * stateless gateway replica enforces the pins it was shipped and never pins.
 * Each server here writes a marker file when it starts: its absence is the
 * proof that it never ran.
 */
import fs from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { shifting } from "@indus/testkit";
import { startFakeModel, say } from "./agent/fake-model/fake-model-server";
import { httpTransport, startHttpGateway, type HttpGateway } from "./support/relay-client";
import { makeSandbox, runCli, type Sandbox } from "./support/run-cli";
import { writeConfig } from "./support/servers";

jest.setTimeout(300_000);

let sandbox: Sandbox;
let gateway: HttpGateway | undefined;
const clients: Client[] = [];
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  await gateway?.stop();
  gateway = undefined;
  sandbox.cleanup();
});

const marker = (name: string) => path.join(sandbox.root, `${name}.started`);
/** A row for the shifting server `id` that writes its marker when it starts. */
const row = (id: string, extra: Record<string, unknown> = {}) => {
  const { command, args } = shifting(id, { marker: marker(id) });
  return { command, args, ...extra };
};
const started = (id: string) => fs.existsSync(marker(id));
const forget = (...ids: string[]) => {
  for (const id of ids) fs.rmSync(marker(id), { force: true });
};

/** An agent session (`-p`) against a model that just answers. */
async function agentRun(args: readonly string[] = []) {
  const fake = await startFakeModel({ script: [say("ok")] });
  try {
    return await runCli(
      ["-p", "hi", ...args, "--provider", "openai", "--base-url", fake.baseUrl, "--model", "fake-model"],
      { sandbox },
    );
  } finally {
    await fake.close();
  }
}

describe("a project's .mcp.json, approved by content", () => {
  const writeProject = (servers: Record<string, unknown>) =>
    fs.writeFileSync(path.join(sandbox.cwd, ".mcp.json"), JSON.stringify({ mcpServers: servers }));

  async function expectNotStarted(id: string, says: string) {
    forget(id);
    const status = await runCli(["mcp", "status"], { sandbox });
    expect(status.stderr).toContain(says);
    const call = await runCli(["call", `${id}__echo`, '{"message":"x"}'], { sandbox });
    expect(call.code).not.toBe(0);
    expect(call.stderr).toContain(says);
    const agent = await agentRun();
    expect(agent.stderr).toContain(says);
    expect(agent.stderr).toContain("indusr mcp approve");
    expect(started(id)).toBe(false);
  }

  it("a changed command does not start until approved again, and every command says what changed", async () => {
    writeProject({ ev: row("ev") });
    expect((await runCli(["mcp", "approve"], { sandbox })).code).toBe(0);
    await runCli(["mcp", "status"], { sandbox });
    expect(started("ev")).toBe(true);

    // The same program under another path: a changed command, however harmless it looks.
    const alias = path.join(sandbox.root, "node-alias");
    fs.symlinkSync(process.execPath, alias);
    writeProject({ ev: row("ev", { command: alias }) });
    await expectNotStarted("ev", "ev (changed since you approved it: command)");

    const approve = await runCli(["mcp", "approve"], { sandbox });
    expect(approve.stdout).toContain(`command: ${JSON.stringify(process.execPath)} → ${JSON.stringify(alias)}`);
    forget("ev");
    await runCli(["mcp", "status"], { sandbox });
    expect(started("ev")).toBe(true);
  });

  it("a server added under a new name does not start until approved", async () => {
    writeProject({ ev: row("ev") });
    await runCli(["mcp", "approve"], { sandbox });
    writeProject({ ev: row("ev"), sneaky: row("sneaky") });
    await expectNotStarted("sneaky", "sneaky (new)");
    const approve = await runCli(["mcp", "approve"], { sandbox });
    expect(approve.stdout).toContain("sneaky (new)");
    await runCli(["mcp", "status"], { sandbox });
    expect(started("sneaky")).toBe(true);
  });
});

describe("the managed policy", () => {
  const policy = (rules: unknown) => {
    const file = path.join(sandbox.root, "managed-mcp.json");
    fs.writeFileSync(file, JSON.stringify(rules));
    sandbox.env.INDUSR_MANAGED_MCP = file;
    return file;
  };

  it("a deny list stops a server on each of the five paths, naming the policy file", async () => {
    const file = policy({ deniedMcpServers: [{ serverName: "blocked*" }] });
    const says = `is denied by the managed policy ${file}`;
    // 1. the user's file, 2. a project file, 3. --mcp
    writeConfig(path.join(sandbox.xdg, "indusvx"), { blocked1: row("blocked1") });
    writeConfig(path.join(sandbox.cwd, ".indusvx"), { blocked2: row("blocked2") });
    const explicit = writeConfig(sandbox.root, { blocked3: row("blocked3") }, "explicit.json");
    const discovered = await runCli(["mcp", "status"], { sandbox });
    expect(discovered.stderr).toContain(`server "blocked1" ${says}`);
    expect(discovered.stderr).toContain(`server "blocked2" ${says}`);
    const viaFlag = await runCli(["mcp", "status", "--mcp", explicit], { sandbox });
    expect(viaFlag.stderr).toContain(`server "blocked3" ${says}`);
    await agentRun(["--mcp", explicit]);
    // 4. mcp add, 5. mcp import: never written, so never started.
    const { command, args } = row("blocked4");
    const add = await runCli(["mcp", "add", "blocked4", "--", command, ...args], { sandbox });
    expect(add.code).toBe(1);
    expect(add.stderr).toContain(`server "blocked4" ${says}`);
    const claude = path.join(sandbox.root, "claude.json");
    fs.writeFileSync(claude, JSON.stringify({ mcpServers: { blocked5: row("blocked5") } }));
    const imported = await runCli(["mcp", "import", "--from", "claude-code", "--file", claude, "--json"], { sandbox });
    expect(imported.code).toBe(1);
    expect(JSON.parse(imported.stdout).servers).toEqual([
      expect.objectContaining({ name: "blocked5", action: "denied", why: expect.stringContaining(says) }),
    ]);
    await runCli(["mcp", "status"], { sandbox });
    for (const id of ["blocked1", "blocked2", "blocked3", "blocked4", "blocked5"]) expect(started(id)).toBe(false);
  });

  it("an allow list stops everything not on it", async () => {
    const file = policy({ allowedMcpServers: [{ serverName: "ok" }] });
    const config = writeConfig(sandbox.root, { ok: row("ok"), other: row("other") });
    const status = await runCli(["mcp", "status", "--mcp", config], { sandbox });
    expect(status.stderr).toContain(`server "other" is not on the allow list of the managed policy ${file}`);
    expect(started("ok")).toBe(true);
    expect(started("other")).toBe(false);
  });
});

describe("stateless gateway replicas", () => {
  it("enforce the pins shipped beside the config, and never write pins of their own", async () => {
    const definitions = path.join(sandbox.root, "definitions.json");
    fs.writeFileSync(definitions, "{}");
    const fx = shifting("fx", { definitions });
    const config = writeConfig(sandbox.root, { fx: { command: fx.command, args: fx.args } });
    const lock = path.join(sandbox.root, "mcp.lock.json");

    // Nothing shipped: nothing is published, nothing is pinned, and the replica says so at start.
    gateway = await startHttpGateway(sandbox, config, ["--stateless", "--profile", "survey", "--no-builtins"]);
    const bare = new Client({ name: "replica-test", version: "1.0.0" });
    clients.push(bare);
    await bare.connect(httpTransport(gateway.url));
    expect((await bare.listTools()).tools).toEqual([]);
    // Said once the server settled (the listing waited for that), on stderr, which may trail the answer.
    const unpinned = `MCP server "fx" has no pins in ${lock}, and a --stateless replica never pins on its own`;
    while (!gateway.stderr().includes(unpinned)) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(gateway.stderr()).toContain(`indusr mcp approve fx --mcp ${config}`);
    expect(fs.existsSync(lock)).toBe(false);
    await gateway.stop();

    // Pinned where the config is written, then shipped: the replica serves what is pinned and holds back a change.
    await runCli(["mcp", "approve", "fx", "--mcp", config], { sandbox });
    const shipped = fs.readFileSync(lock, "utf8");
    fs.writeFileSync(definitions, JSON.stringify({ echoDescription: "Now with a twist" }));
    gateway = await startHttpGateway(sandbox, config, ["--stateless", "--profile", "survey", "--no-builtins"]);
    const client = new Client({ name: "replica-test", version: "1.0.0" });
    clients.push(client);
    await client.connect(httpTransport(gateway.url));
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(["fx__show_app", "fx__write_note"]);
    expect(fs.readFileSync(lock, "utf8")).toBe(shipped);
    expect(gateway.stderr()).not.toContain("has no pins");
  });
});
