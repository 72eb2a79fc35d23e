/**
 * Both MCP eras through the CLI: a v2 modern-only server (stdio and
 * Streamable HTTP) shows as ready in era 2026-07-28 and answers `indusr
 * call`; a server that exits on an unknown pre-initialize request connects
 * as legacy, and the remembered verdict (under $XDG_STATE_HOME/indusr) means
 * the next run spawns it once.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { makeSandbox, runCli, type Sandbox } from "./support/run-cli";
import { fixtureRow, writeConfig } from "./support/servers";

jest.setTimeout(120_000);

const modernRow = (...args: string[]) => fixtureRow("modern-server.mjs", ...args);
const rmcpRow = (spawnLog: string) => fixtureRow("rmcp-style-server.mjs", spawnLog);
const spawns = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim().split("\n").length : 0);

let sandbox: Sandbox;
let http: ChildProcess | undefined;
let httpUrl: string;

beforeAll(async () => {
  http = spawn(process.execPath, fixtureRow("modern-server.mjs", "http").args, {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await new Promise<string>((resolve) => {
    http!.stdout!.on("data", (chunk: Buffer) => {
      const match = /PORT (\d+)/.exec(String(chunk));
      if (match) resolve(match[1]!);
    });
  });
  httpUrl = `http://127.0.0.1:${port}/mcp`;
});
afterAll(() => {
  http?.kill("SIGTERM");
});
beforeEach(() => {
  sandbox = makeSandbox();
  sandbox.env.XDG_STATE_HOME = path.join(sandbox.root, "state");
});
afterEach(() => sandbox.cleanup());

it("shows a modern-only server ready in era 2026-07-28 over stdio and HTTP, table and --json", async () => {
  const config = writeConfig(sandbox.root, { modern: modernRow(), remote: { url: httpUrl } });
  const table = await runCli(["mcp", "status", "--mcp", config], { sandbox });
  expect(table.code).toBe(0);
  expect(table.stdout).toMatch(/modern\s+ready\s+2026-07-28\s+\d+/);
  expect(table.stdout).toMatch(/remote\s+ready\s+2026-07-28\s+\d+/);
  const json = await runCli(["mcp", "status", "--json", "--mcp", config], { sandbox });
  const reports = JSON.parse(json.stdout) as { name: string; phase: string; era: string }[];
  expect(reports.map(({ name, phase, era }) => ({ name, phase, era }))).toEqual([
    { name: "modern", phase: "ready", era: "2026-07-28" },
    { name: "remote", phase: "ready", era: "2026-07-28" },
  ]);
});

it.each(["modern", "remote"])("calls a tool of a modern-only server (%s)", async (server) => {
  const config = writeConfig(sandbox.root, { modern: modernRow(), remote: { url: httpUrl } });
  const result = await runCli(["call", `${server}__echo`, '{"message":"across eras"}', "--mcp", config], {
    sandbox,
  });
  expect(result.code).toBe(0);
  expect(result.stdout).toContain("Echo: across eras");
});

it("connects an rmcp-style server as legacy and spawns it once on the next run", async () => {
  const log = path.join(sandbox.root, "spawns.log");
  const config = writeConfig(sandbox.root, { rmcp: rmcpRow(log) });
  const first = await runCli(["mcp", "status", "--json", "--mcp", config], { sandbox });
  expect(JSON.parse(first.stdout)[0]).toMatchObject({ name: "rmcp", phase: "ready", era: "legacy" });
  expect(spawns(log)).toBe(2); // the era probe killed the first process
  expect(fs.existsSync(path.join(sandbox.root, "state", "indusr", "mcp-eras.json"))).toBe(true);
  const next = await runCli(["call", "rmcp__echo", '{"message":"again"}', "--mcp", config], { sandbox });
  expect(next.code).toBe(0);
  expect(next.stdout).toContain("rmcp: again");
  expect(spawns(log)).toBe(3);
});

it("names the era mismatch for a modern-only server pinned to legacy", async () => {
  const config = writeConfig(sandbox.root, { modern: { ...modernRow(), protocol: "legacy" } });
  const result = await runCli(["mcp", "status", "--json", "--mcp", config], { sandbox });
  expect(result.code).toBe(1);
  const [report] = JSON.parse(result.stdout) as { fault: { kind: string; message: string } }[];
  expect(report!.fault.kind).toBe("protocol");
  expect(report!.fault.message).toMatch(/speaks only MCP 2026-07-28.*pins protocol "legacy"/);
});
