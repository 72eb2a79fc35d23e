/**
 * On a real terminal (tmux): a project's `.vscode/mcp.json` asks once for
 * approval (stored in the user's state folder, not asked again) and for its
 * `${input:…}` value, typed without echo; the server then loads with it.
 */
import fs from "node:fs";
import path from "node:path";
import { TmuxSession } from "./agent/support/tmux";
import { BIN, makeSandbox, type Sandbox } from "./support/run-cli";

jest.setTimeout(120_000);

let sandbox: Sandbox;
let tmux: TmuxSession | undefined;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => {
  tmux?.kill();
  tmux = undefined;
  sandbox.cleanup();
});

it("asks for approval once and for an input without echo, then lists the server", async () => {
  const file = path.join(sandbox.cwd, ".vscode", "mcp.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(
    file,
    JSON.stringify({
      inputs: [{ type: "promptString", id: "api-key", description: "API key", password: true }],
      servers: { api: { type: "http", url: "http://127.0.0.1:9/mcp", headers: { "X-Key": "${input:api-key}" } } },
    }),
  );
  const start = () =>
    TmuxSession.start([process.execPath, BIN, "mcp", "get", "api"], {
      cwd: sandbox.cwd,
      env: sandbox.env,
      scriptDir: sandbox.root,
    });
  tmux = start();
  const asked = await tmux.waitFor(/Start it in .*\? \[y\/N\]/);
  expect(asked).toContain("api (new)");
  tmux.type("y");
  await tmux.waitFor(/API key \(for .*mcp\.json\):/);
  tmux.type("typed-secret");
  const screen = await tmux.waitFor(/\[exited 0\]/);
  expect(screen).toContain("header X-Key: ***");
  expect(screen).not.toContain("typed-secret");
  tmux.kill();

  // Approved once: the second run only asks for the input.
  tmux = start();
  const second = await tmux.waitFor(/API key \(for /);
  expect(second).not.toContain("[y/N]");
  tmux.type("again");
  await tmux.waitFor(/\[exited 0\]/);
});
