/**
 * `mcp status` (like `mcp skills`) only lists, so it ends its servers at
 * once: SIGTERM goes with the stdin end instead of after the grace that
 * protects a server in mid-write. A server that keeps running after stdin
 * EOF no longer holds the command for that grace: here the grace is set to
 * twenty minutes, so the command ends at all only because the server was
 * signalled (Jest's ceiling is the guard). Real processes, real signals.
 */
import fs from "node:fs";
import path from "node:path";
import { isAlive, waitFor } from "@indus/testkit";
import { makeSandbox, runCli, type Sandbox } from "./support/run-cli";
import { writeConfig } from "./support/servers";

jest.setTimeout(60_000);

const STUBBORN = path.join(__dirname, "fixtures", "stubborn-server.mjs");

let sandbox: Sandbox;
let pids: number[] = [];
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => {
  for (const pid of pids.filter(isAlive)) process.kill(pid, "SIGKILL");
  pids = [];
  sandbox.cleanup();
});

it("ends a server that ignores stdin EOF at once, and its process group with it", async () => {
  const args = [STUBBORN, `dir=${sandbox.root}`, "name=lingering", "term-exit=1"];
  writeConfig(path.join(sandbox.cwd, ".indusvx"), { lingering: { command: process.execPath, args } });
  const run = await runCli(["mcp", "status"], { sandbox, env: { INDUSR_CLOSE_GRACE_MS: "1200000" } });
  pids = fs.readFileSync(path.join(sandbox.root, "lingering.pids"), "utf8").trim().split(" ").map(Number);
  expect({ code: run.code, stdout: run.stdout }).toEqual({
    code: 0,
    stdout: expect.stringContaining("1 of 1 servers ready"),
  });
  expect(run.stderr).toBe("");
  expect(fs.existsSync(path.join(sandbox.root, "lingering.sigterm"))).toBe(true);
  // The server and the grandchild it started in its group.
  await waitFor(`the server's group gone (pids ${pids.join(" ")})`, () => pids.every((pid) => !isAlive(pid)));
});
