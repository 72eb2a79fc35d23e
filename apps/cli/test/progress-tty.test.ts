import { TmuxSession } from "./agent/support/tmux";
import { BIN, makeSandbox, type Sandbox } from "./support/run-cli";
import { everythingRow, writeConfig } from "./support/servers";

jest.setTimeout(120_000);

let sandbox: Sandbox;
let tmux: TmuxSession | undefined;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => {
  tmux?.kill();
  sandbox.cleanup();
});

it("renders live connect progress on a terminal and clears it when every server has settled", async () => {
  const slow = everythingRow();
  const config = writeConfig(sandbox.root, {
    slow: { command: "/bin/sh", args: ["-c", `sleep 3; exec "${slow.command}" "${slow.args[0]}" stdio`] },
    broken: { command: process.execPath, args: ["-e", "process.exit(4)"] },
  });
  // A prompt line first, as in a real shell. (A block cleared from the very
  // top of the screen is moved into tmux's scrollback by its scroll-on-clear.)
  const command = `echo '$ indusr mcp status'; exec "${process.execPath}" "${BIN}" mcp status --mcp "${config}"`;
  tmux = TmuxSession.start(["/bin/sh", "-c", command], { cwd: sandbox.cwd, env: sandbox.env, scriptDir: sandbox.root });
  // While the slow server starts: a spinner line for it, and the failure already shown.
  const during = await tmux.waitFor(/broken failed · /);
  expect(during).toMatch(/slow connecting…/);
  // Afterwards the progress block is gone and only the report remains.
  const after = await tmux.waitFor(/\[exited \d+\]/);
  expect(after).toMatch(/^\$ indusr mcp status\nSERVER\s+PHASE/);
  expect(after).not.toContain("connecting…");
  expect(after).not.toContain(" · ");
  expect(after).toMatch(/slow\s+ready\s+legacy\s+\d+/);
  expect(after).toMatch(/broken\s+faulted/);
  expect(after).toContain("[exited 1]");
});
