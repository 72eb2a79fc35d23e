/** Server logs: one private, timestamped file per run in the state folder; `mcp logs` shows the latest, `--all` every kept run. */
import fs from "node:fs";
import path from "node:path";
import { makeSandbox, runCli, type Sandbox } from "./support/run-cli";
import { crashingRow, writeConfig } from "./support/servers";

jest.setTimeout(60_000);

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

const stateLogs = () => path.join(sandbox.home, ".local", "state", "indusr", "logs");

it("keeps each run's stderr apart, stamped and private; logs shows the latest run, --all every run", async () => {
  // Pinned to the 2025 era: in `auto` a server that dies at once is retried as legacy in the same run.
  writeConfig(path.join(sandbox.cwd, ".indusvx"), { broken: { ...crashingRow(), protocol: "legacy" } });
  expect((await runCli(["mcp", "status"], { sandbox })).code).toBe(1);
  expect((await runCli(["mcp", "status"], { sandbox })).code).toBe(1);
  const runs = fs.readdirSync(stateLogs());
  expect(runs).toHaveLength(2);
  const file = path.join(stateLogs(), runs[1]!, "broken.log");
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  expect(fs.readFileSync(file, "utf8")).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z fatal: cannot open database\n/);

  const latest = await runCli(["mcp", "logs", "broken"], { sandbox });
  expect(latest.code).toBe(0);
  expect(latest.stdout.match(/fatal: cannot open database/g)).toHaveLength(1);
  const all = await runCli(["mcp", "logs", "broken", "--all"], { sandbox });
  expect(all.stdout.match(/fatal: cannot open database/g)).toHaveLength(2);
  expect(all.stdout.match(/^==> .*broken\.log <==$/gm)).toHaveLength(2);
});

it("keeps only the newest 20 runs", async () => {
  for (let i = 0; i < 25; i += 1) {
    const dir = path.join(stateLogs(), `2020-01-01T00-00-${String(i).padStart(2, "0")}-000Z-${1000 + i}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "broken.log"), `old run ${i}\n`);
  }
  writeConfig(path.join(sandbox.cwd, ".indusvx"), { broken: crashingRow() });
  await runCli(["mcp", "status"], { sandbox });
  const runs = fs.readdirSync(stateLogs()).sort();
  expect(runs).toHaveLength(20);
  expect(runs[0]).toBe("2020-01-01T00-00-06-000Z-1006");
  const latest = await runCli(["mcp", "logs", "broken"], { sandbox });
  expect(latest.stdout).toContain("fatal: cannot open database");
});
