/**
 * Honest exit codes and no silent hangs, against the built indusr: many runs
 * at once of `mcp status` with a failing server and of `call` on a tool that
 * reports an error all exit 1; a listing timeout is a warning and exit 1; the
 * gateway ends when its stdin closes while servers still connect; a server
 * that closes its stdout fails the call at once; `call … | head` ends quietly.
 * `INDUSR_EXIT_RUNS` raises the run count for a hand run (200).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { BIN, makeSandbox, runCli, type Sandbox } from "./support/run-cli";
import { crashingRow, writeConfig } from "./support/servers";
import { FIXTURES, waitFor } from "@indus/testkit";

jest.setTimeout(300_000);

const RUNS = Number(process.env.INDUSR_EXIT_RUNS ?? 16);
const AT_ONCE = 8;
const STUBBORN = path.join(__dirname, "fixtures", "stubborn-server.mjs");
const CLOSES_STDOUT = path.join(FIXTURES, "closes-stdout.mjs");

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

const stubborn = (...extra: string[]) => ({
  command: process.execPath,
  args: [STUBBORN, `dir=${sandbox.root}`, "quiet-exit=1", ...extra],
});

async function manyRuns(args: readonly string[]): Promise<Map<number | null, number>> {
  const codes = new Map<number | null, number>();
  let next = 0;
  const worker = async () => {
    while (next < RUNS) {
      next += 1;
      const { code } = await runCli(args, { sandbox });
      codes.set(code, (codes.get(code) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, worker));
  return codes;
}

it(`mcp status with a failing server: exit 1 in every one of ${RUNS} runs, ${AT_ONCE} at a time`, async () => {
  writeConfig(path.join(sandbox.cwd, ".indusvx"), { good: stubborn("name=good"), bad: crashingRow() });
  expect([...(await manyRuns(["mcp", "status"]))]).toEqual([[1, RUNS]]);
});

it(`call on a tool that reports an error: exit 1 in every one of ${RUNS} runs, ${AT_ONCE} at a time`, async () => {
  writeConfig(path.join(sandbox.cwd, ".indusvx"), { s: stubborn("name=s") });
  expect([...(await manyRuns(["call", "s__fail"]))]).toEqual([[1, RUNS]]);
});

it("a tools/list that times out is a warning naming the server and the reason, in --json too, and exit 1", async () => {
  writeConfig(path.join(sandbox.cwd, ".indusvx"), {
    // The listing never comes within the test's time: only the 1 s list timeout can end it.
    slowlist: { ...stubborn("name=slowlist", "list-delay=600000"), listTimeoutMs: 1_000 },
  });
  const text = await runCli(["mcp", "status"], { sandbox });
  expect(text.code).toBe(1);
  expect(text.stderr).toMatch(/warning: MCP server "slowlist" connected, but listing its tools failed \(timeout\)/);
  expect(text.stdout).toContain("listing failed, timeout");
  const json = await runCli(["mcp", "status", "--json"], { sandbox });
  expect(json.code).toBe(1);
  const report = (JSON.parse(json.stdout) as { id: string; listFault?: { kind: string; message: string } }[])[0]!;
  expect(report.listFault?.kind).toBe("timeout");
  expect(report.listFault?.message).toContain('server "slowlist"');
});

it("a server that closes its stdout fails the call at once, naming the server and the reason", async () => {
  writeConfig(path.join(sandbox.cwd, ".indusvx"), { mute: { command: process.execPath, args: [CLOSES_STDOUT] } });
  const result = await runCli(["call", "mute__hang"], { sandbox });
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('server "mute" closed its stdout while still running');
});

it("mcp serve --stdio ends when its stdin closes while a server is still connecting, leaving nothing", async () => {
  // The server would answer initialize only long after the test's time: ending at all proves it was not waited for.
  writeConfig(path.join(sandbox.cwd, ".indusvx"), {
    late: { ...stubborn("name=late", "init-delay=600000"), startupTimeoutMs: 600_000 },
  });
  const child = spawn(process.execPath, [BIN, "mcp", "serve", "--stdio"], {
    cwd: sandbox.cwd,
    env: sandbox.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  child.stdout.resume();
  child.stderr.resume();
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  // Close stdin once the server is up and still connecting (a fixed wait lost the race on a loaded machine).
  const pidsFile = path.join(sandbox.root, "late.pids");
  await waitFor("the late server's pids file", () => fs.existsSync(pidsFile));
  child.stdin.end();
  const code = await exited;
  expect(code).toBe(0);
  const pids = fs.readFileSync(pidsFile, "utf8").trim().split(" ").map(Number);
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
    } catch {
      return false;
    }
  };
  expect(pids.filter(alive)).toEqual([]);
});

it("call … | head: a closed stdout ends the command quietly, no EPIPE stack", async () => {
  const child = spawn(
    "sh",
    ["-c", `"${process.execPath}" "${BIN}" call bash '{"command":"yes line | head -n 200000"}' | head -n 1`],
    { cwd: sandbox.cwd, env: sandbox.env, stdio: ["ignore", "pipe", "pipe"] },
  );
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  await new Promise((resolve) => child.once("close", resolve));
  expect(stdout).toBe("line\n");
  expect(stderr).not.toMatch(/EPIPE|Error/);
});

it("call <server>__<tool> connects only that server, and a built-in none (a server that never answers is not waited for)", async () => {
  // `never` would hold a connect of it past the test's time: finishing at all proves it was not started.
  writeConfig(path.join(sandbox.cwd, ".indusvx"), {
    never: {
      command: process.execPath,
      args: [path.join(FIXTURES, "never-initializes.mjs")],
      startupTimeoutMs: 600_000,
    },
    s: stubborn("name=s"),
  });
  const owned = await runCli(["call", "s__fail"], { sandbox });
  expect(owned.code).toBe(1);
  expect(owned.stderr).toContain("the tool failed");
  fs.writeFileSync(path.join(sandbox.cwd, "x.txt"), "hello\n");
  const builtin = await runCli(["call", "read", '{"path":"x.txt"}'], { sandbox });
  expect(builtin.code).toBe(0);
  expect(builtin.stdout).toContain("hello");
});
