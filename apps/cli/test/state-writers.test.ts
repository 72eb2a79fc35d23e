/**
 * Ten `indusr` processes writing one state file at once lose nothing: each
 * file (era verdicts, project approvals, project memory) is changed with a
 * locked read-modify-write (`@indus/state-file`). Config files have their own
 * test (config-writes.test.ts). Real processes, one shared state folder.
 */
import fs from "node:fs";
import path from "node:path";
import { makeSandbox, runCli, type Sandbox } from "./support/run-cli";
import { fixtureRow, writeConfig } from "./support/servers";

jest.setTimeout(180_000);

const WRITERS = 10;

let sandbox: Sandbox;
const stateHome = () => path.join(sandbox.root, "state");
beforeEach(() => {
  sandbox = makeSandbox();
  sandbox.env.XDG_STATE_HOME = stateHome();
});
afterEach(() => sandbox.cleanup());

const each = <T>(body: (i: number) => Promise<T>): Promise<T[]> =>
  Promise.all(Array.from({ length: WRITERS }, (_, i) => body(i)));

it(`keeps the era verdict of every server when ${WRITERS} processes connect at once`, async () => {
  const results = await each((i) => {
    // A distinct argument per process: a distinct server identity, so a verdict of its own.
    const row = fixtureRow("modern-server.mjs", `writer=${i}`);
    const config = writeConfig(path.join(sandbox.root, `c${i}`), { [`m${i}`]: row });
    return runCli(["mcp", "status", "--json", "--mcp", config], { sandbox });
  });
  expect(results.map((result) => [result.code, result.stderr])).toEqual(results.map(() => [0, ""]));
  const verdicts = JSON.parse(fs.readFileSync(path.join(stateHome(), "indusr", "mcp-eras.json"), "utf8")) as Record<
    string,
    { kind: string }
  >;
  expect(Object.values(verdicts).map((verdict) => verdict.kind)).toEqual(
    Array.from({ length: WRITERS }, () => "modern"),
  );
});

it(`keeps every project's approval when ${WRITERS} processes approve at once`, async () => {
  const projects = Array.from({ length: WRITERS }, (_, i) => path.join(sandbox.root, `project-${i}`));
  for (const project of projects) {
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, ".mcp.json"), JSON.stringify({ mcpServers: { ev: { command: "node" } } }));
  }
  const results = await each((i) => runCli(["mcp", "approve"], { sandbox, cwd: projects[i]! }));
  expect(results.map((result) => [result.code, result.stdout])).toEqual(
    projects.map((project) => [0, expect.stringContaining(`Approved ${path.join(project, ".mcp.json")}`)]),
  );
  const file = path.join(stateHome(), "indusvx", "approved-projects.json");
  const state = JSON.parse(fs.readFileSync(file, "utf8")) as { projects: Record<string, { files: string[] }> };
  expect(Object.keys(state.projects).sort()).toEqual([...projects].sort());
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
});

it(`keeps every note when ${WRITERS} processes append to the project memory at once`, async () => {
  const results = await each((i) =>
    runCli(["call", "memory", JSON.stringify({ action: "append", text: `note ${i}` }), "--profile", "all"], {
      sandbox,
    }),
  );
  expect(results.map((result) => [result.code, result.stderr])).toEqual(results.map(() => [0, ""]));
  const notes = fs
    .readFileSync(path.join(sandbox.cwd, ".indusvx", "memory.md"), "utf8")
    .trim()
    .split("\n");
  expect(notes.sort()).toEqual(Array.from({ length: WRITERS }, (_, i) => `note ${i}`).sort());
});
