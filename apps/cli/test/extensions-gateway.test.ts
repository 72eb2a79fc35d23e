/**
 * The official extensions through `indusr mcp serve`, to a real v2 SDK client:
 * Skills (two servers offering the same skill names reach the client as
 * distinct skills that its `SkillsClient` verifies; a tampered skill is
 * refused) and MCP Apps (in both naming modes every tool's
 * `_meta.ui.resourceUri` reads through the gateway, byte-identical to the
 * server's own answer).
 */
import { Client } from "@modelcontextprotocol/client";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { exampleStdio } from "@indus/testkit";
import { BIN, makeSandbox, runCli, type Sandbox } from "./support/run-cli";
import { writeConfig } from "./support/servers";

jest.setTimeout(180_000);

let sandbox: Sandbox;
let clients: Client[] = [];
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(async () => {
  await Promise.all(clients.map((client) => client.close()));
  clients = [];
  sandbox.cleanup();
});

/** A real client of `indusr mcp serve --stdio` over the given config. */
async function gatewayClient(config: string, names: "prefixed" | "as-is"): Promise<Client> {
  const client = new Client({ name: "extensions-test", version: "1.0.0" });
  clients.push(client);
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "mcp", "serve", "--stdio", "--names", names, "--no-builtins", "--profile", "survey", "--mcp", config],
      cwd: sandbox.cwd,
      env: sandbox.env as Record<string, string>,
      stderr: "ignore",
    }),
  );
  return client;
}

/** The same server, directly. */
async function directClient(row: { command: string; args: string[] }): Promise<Client> {
  const client = new Client({ name: "extensions-test", version: "1.0.0" });
  clients.push(client);
  await client.connect(new StdioClientTransport({ ...row, stderr: "ignore" }));
  return client;
}

describe("skills", () => {
  it("two servers' same-named skills reach the client as distinct skills, each verified", async () => {
    const config = writeConfig(sandbox.root, {
      alpha: exampleStdio("skills-server"),
      beta: exampleStdio("skills-server"),
    });
    const client = await gatewayClient(config, "prefixed");
    const skills = new SkillsClient(client);
    expect(skills.supported).toBe(true);
    const { skills: entries, invalid } = await skills.list();
    expect(invalid).toEqual([]);
    expect(entries.map((entry) => entry.uri).sort()).toEqual([
      "skill://alpha/code-review/SKILL.md",
      "skill://alpha/release-notes/SKILL.md",
      "skill://beta/code-review/SKILL.md",
      "skill://beta/release-notes/SKILL.md",
    ]);
    for (const entry of entries) {
      const manifest = await skills.read(entry);
      expect(manifest.verified).toBe(true);
      expect(manifest.frontmatter).toEqual(entry.frontmatter);
    }
    const notes = entries.find((entry) => entry.uri === "skill://beta/release-notes/SKILL.md")!;
    await expect(skills.read(notes, "template.md")).resolves.toMatchObject({ verified: true });
    const fetched = await skills.get("skill://alpha/code-review/SKILL.md");
    expect(fetched.skill.frontmatter.name).toBe("code-review");
  });

  it("a skill whose SKILL.md does not match its digest fails the client's verification through the gateway", async () => {
    const config = writeConfig(sandbox.root, {
      tampered: exampleStdio("skills-server", ["--tamper", "code-review"]),
    });
    const client = await gatewayClient(config, "prefixed");
    const skills = new SkillsClient(client);
    const { skills: entries } = await skills.list();
    const review = entries.find((entry) => entry.frontmatter.name === "code-review")!;
    await expect(skills.read(review)).rejects.toMatchObject({ name: "SkillVerificationError", reason: "digest" });
  });
});

describe.each(["prefixed", "as-is"] as const)("an MCP App (--names %s)", (names) => {
  it("every tool's view resolves through the gateway, byte-identical to direct, metadata as sent", async () => {
    const row = exampleStdio("apps-server");
    const config = writeConfig(sandbox.root, { dice: row });
    const client = await gatewayClient(config, names);
    const direct = await directClient(row);
    const original = (await direct.readResource({ uri: "ui://dice/board.html" })).contents[0]!;
    const { tools } = await client.listTools();
    const withViews = tools.filter((tool) => tool._meta?.["ui"] !== undefined);
    expect(withViews).toHaveLength(2);
    for (const tool of withViews) {
      const uri = (tool._meta!["ui"] as { resourceUri: string }).resourceUri;
      expect(uri).toBe(names === "prefixed" ? "ui://dice/dice/board.html" : "ui://dice/board.html");
      expect(tool._meta!["ui/resourceUri"]).toBe(uri);
      const [content] = (await client.readResource({ uri })).contents;
      expect(content).toEqual({ ...original, uri });
    }
  });
});

describe("indusr mcp skills", () => {
  it("lists each server's skills as the agent's commands, and a gateway's by path", async () => {
    const config = writeConfig(sandbox.root, {
      alpha: exampleStdio("skills-server"),
      beta: exampleStdio("skills-server"),
    });
    const listed = await runCli(["mcp", "skills", "--mcp", config], { sandbox });
    expect(listed.code).toBe(0);
    for (const command of ["/alpha:release-notes", "/alpha:code-review", "/beta:release-notes", "/beta:code-review"])
      expect(listed.stdout).toContain(command);
    const one = await runCli(["mcp", "skills", "beta", "--json", "--mcp", config], { sandbox });
    expect((JSON.parse(one.stdout) as { command: string }[]).map((skill) => skill.command)).toEqual([
      "/beta:release-notes",
      "/beta:code-review",
    ]);
    // The gateway relays both servers' same-named skills: one server, two skills per name, shown by path.
    const gateway = writeConfig(
      sandbox.root,
      {
        // The gateway answers once its servers settled (the boot wait only bounds it), however loaded the machine.
        gw: {
          command: process.execPath,
          args: [BIN, "mcp", "serve", "--stdio", "--no-builtins", "--boot-wait", "120000", "--mcp", config],
        },
      },
      "gateway.json",
    );
    const relayed = await runCli(["mcp", "skills", "--json", "--mcp", gateway], { sandbox });
    expect((JSON.parse(relayed.stdout) as { command: string }[]).map((skill) => skill.command).sort()).toEqual([
      "/gw:alpha/code-review",
      "/gw:alpha/release-notes",
      "/gw:beta/code-review",
      "/gw:beta/release-notes",
    ]);
    const unknown = await runCli(["mcp", "skills", "nope", "--mcp", config], { sandbox });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no MCP server "nope" is configured');
  });
});
