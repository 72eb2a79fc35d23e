// Each published package's exported runtime and type names are pinned in its
// api-report.txt. After an intended API change: `pnpm build && pnpm api:report`.
import { spawnSync } from "node:child_process";
import path from "node:path";

it("every package's built API matches its checked-in api-report.txt", () => {
  const script = path.join(__dirname, "..", "api-report.mjs");
  const result = spawnSync(process.execPath, [script], { encoding: "utf8" });
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
});
