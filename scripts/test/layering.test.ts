import { spawnSync } from "node:child_process";
import path from "node:path";

const script = path.join(__dirname, "..", "check-layering.mjs");
const run = (root: string) => spawnSync(process.execPath, [script, root], { encoding: "utf8" });

describe("layering check", () => {
  it("passes on this workspace", () => {
    const result = run(path.join(__dirname, "..", ".."));
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/layering: ok/);
  });

  it("fails on a fixture with every kind of bad edge, naming each place", () => {
    const result = run(path.join(__dirname, "fixtures", "bad-workspace"));
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split("\n").sort();
    expect(lines).toEqual(
      [
        "layering: packages/contract/package.json: dependencies names @indus/ledger: the edge contract → ledger is not allowed",
        'layering: packages/ledger/src/index.ts: deep import "@indus/contract/src/fault": import "@indus/contract" instead',
        "layering: packages/ledger/src/index.ts: imports @indus/fleet but packages/ledger/package.json does not declare it",
        "layering: packages/ledger/src/index.ts: imports @indus/fleet: the edge ledger → fleet is not allowed",
        'layering: packages/ledger/src/index.ts: relative import "../../contract/src/index" leaves packages/ledger',
        'layering: packages/ledger/test/leak-helper.ts: relative import "../../contract/src/fault" leaves packages/ledger',
        "layering: packages/ledger: import cycle among 1 files: bench/self.mjs",
        "layering: packages/ledger: import cycle among 2 files: src/a.ts, src/b.ts",
        'layering: packages/rogue/package.json: package folder "rogue" is not in the layering table',
        "layering: workspace: dependency cycle: contract → ledger → contract",
      ].sort(),
    );
  });
});
