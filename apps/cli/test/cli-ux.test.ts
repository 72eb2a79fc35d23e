import fs from "node:fs";
import path from "node:path";
import { makeSandbox, runCli, type Sandbox } from "./support/run-cli";
import { everythingRow, writeConfig } from "./support/servers";

jest.setTimeout(60_000);

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

describe("a bare word that looks like a command", () => {
  it.each([
    ["help", "indusr --help"],
    ["tool", "indusr tools"],
    ["doctr", "indusr doctor"],
    ["version", "indusr --version"],
  ])("%s gets 'did you mean', exit 2, and no model turn", async (word, meant) => {
    const result = await runCli([word], { sandbox });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`Did you mean \`${meant}\`?`);
  });
});

describe("empty state and approval", () => {
  it("names every place indus looked, the files waiting for approval, and the import that would help", async () => {
    fs.writeFileSync(path.join(sandbox.cwd, ".mcp.json"), JSON.stringify({ mcpServers: { ev: everythingRow() } }));
    const empty = await runCli(["mcp", "list"], { sandbox });
    expect(empty.stdout).toContain(`${path.join(sandbox.cwd, ".indusvx", "mcp.json")} (not found)`);
    expect(empty.stdout).toContain(`${path.join(sandbox.xdg, "indusvx", "mcp.json")} (not found)`);
    expect(empty.stdout).toContain("Waiting for your approval: ev in");
    expect(empty.stdout).toContain("`indusr mcp import --from claude-code`");
    expect(empty.stderr).toContain("approve with `indusr mcp approve`");

    const approved = await runCli(["mcp", "approve"], { sandbox });
    expect(approved.stdout).toContain(`Approved ${path.join(sandbox.cwd, ".mcp.json")} (ev)`);
    // Stored in the user's state folder, never in the project.
    expect(fs.existsSync(path.join(sandbox.home, ".local", "state", "indusvx", "approved-projects.json"))).toBe(true);
    const listed = await runCli(["mcp", "list", "--json"], { sandbox });
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({
        name: "ev",
        transport: "stdio",
        source: path.join(sandbox.cwd, ".mcp.json"),
        warnings: [],
      }),
    ]);
  });
});

describe("indusr doctor", () => {
  it("reports config, each command on PATH, auth and a real connect; exit 1 on a problem", async () => {
    const file = writeConfig(sandbox.root, {
      ev: everythingRow(),
      ghost: { command: "no-such-program-xyz" },
      api: { url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer ${T}" }, startupTimeoutMs: 3000 },
    });
    const result = await runCli(["doctor", "--json", "--mcp", file], { sandbox, env: { T: "x" } });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    const byName = Object.fromEntries(report.servers.map((s: { name: string }) => [s.name, s]));
    expect(byName.ev).toMatchObject({ phase: "ready", command: { path: process.execPath }, auth: "n/a (stdio)" });
    expect(byName.ghost).toMatchObject({ command: { name: "no-such-program-xyz", path: null } });
    expect(byName.api).toMatchObject({ auth: "static Authorization header", phase: "faulted" });
    const text = await runCli(["doctor", "--mcp", file], { sandbox, env: { T: "x" } });
    expect(text.stdout).toContain("no-such-program-xyz → NOT FOUND on PATH");
  });
});

describe("indusr completion", () => {
  it.each(["bash", "zsh", "fish"])("prints a %s script naming the commands", async (shell) => {
    const result = await runCli(["completion", shell], { sandbox });
    expect(result.code).toBe(0);
    for (const word of ["tools", "doctor", "mcp", "import", shell === "fish" ? "-l from" : "--from"])
      expect(result.stdout).toContain(word);
  });

  it("the bash script completes `indusr mcp im`", async () => {
    const script = (await runCli(["completion", "bash"], { sandbox })).stdout;
    const file = path.join(sandbox.root, "c.bash");
    fs.writeFileSync(file, `${script}\nCOMP_WORDS=(indusr mcp im); COMP_CWORD=2; _indusr; echo "\${COMPREPLY[@]}"\n`);
    const { execFileSync } = await import("node:child_process");
    expect(execFileSync("bash", [file], { encoding: "utf8" }).trim()).toBe("import");
  });
});
