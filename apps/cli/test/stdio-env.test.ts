/**
 * A stdio server inherits the user's environment, as Claude Code's do: a
 * variable exported only in the shell reaches it. `inheritEnv: false` keeps
 * it to a safe base set; an `env_vars` allow-list (Codex's form) lets named
 * variables through.
 */
import { makeSandbox, runCli, type Sandbox } from "./support/run-cli";
import { writeConfig } from "./support/servers";
import { TINY } from "./agent/support/agent-cli";

jest.setTimeout(120_000);

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

const envServer = (extra: Record<string, unknown> = {}) => ({
  command: process.execPath,
  args: [TINY, "t", "env"],
  ...extra,
});

async function seen(row: Record<string, unknown>, key: string): Promise<string> {
  const config = writeConfig(sandbox.root, { t: row });
  const result = await runCli(["call", "t__env", JSON.stringify({ key }), "--mcp", config], {
    sandbox,
    env: { SHELL_ONLY_TOKEN: "tok-123", OTHER_VAR: "other" },
  });
  expect(result.stderr).toBe("");
  return result.stdout.trim();
}

it("passes a variable exported only in the shell by default", async () => {
  expect(await seen(envServer(), "SHELL_ONLY_TOKEN")).toBe("SHELL_ONLY_TOKEN=tok-123");
});

it("keeps it from the server with inheritEnv: false, and lets an env_vars name through", async () => {
  expect(await seen(envServer({ inheritEnv: false }), "SHELL_ONLY_TOKEN")).toBe("SHELL_ONLY_TOKEN=(unset)");
  expect(await seen(envServer({ inheritEnv: false }), "PATH")).toMatch(/^PATH=\//);
  const allowed = envServer({ env_vars: ["SHELL_ONLY_TOKEN"] });
  expect(await seen(allowed, "SHELL_ONLY_TOKEN")).toBe("SHELL_ONLY_TOKEN=tok-123");
  expect(await seen(allowed, "OTHER_VAR")).toBe("OTHER_VAR=(unset)");
});
