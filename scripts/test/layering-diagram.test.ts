// The layering diagrams in the docs are generated from the table the layering
// check enforces; after changing the table run `node scripts/layering-diagram.mjs --write`.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.join(__dirname, "..", "..");

it("keeps every doc's layering diagram in sync with check-layering.mjs", () => {
  const result = spawnSync(process.execPath, [path.join(root, "scripts", "layering-diagram.mjs")], {
    encoding: "utf8",
  });
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
});

it("has a diagram block in CONTRIBUTING.md and AGENTS.md", () => {
  for (const doc of ["CONTRIBUTING.md", "AGENTS.md"]) {
    expect(fs.readFileSync(path.join(root, doc), "utf8")).toContain("<!-- layering:start");
  }
});
