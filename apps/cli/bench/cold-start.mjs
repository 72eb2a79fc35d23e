// Cold start: `indusr --version` and `indusr tools --no-tools` against
// `node -e 0` in the same run. Run: pnpm --filter indusr build && node bench/cold-start.mjs
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { BIN, QUICK, ensureBuilt, fmt, tempDir, timeInterleaved } from "./support.mjs";

ensureBuilt();
const home = tempDir("indusr-bench-home-");
// Any ES module pays for Node's ESM loader; this separates that from indusr's own cost.
const emptyModule = path.join(home, "empty.mjs");
fs.writeFileSync(emptyModule, "");
const options = { env: { PATH: process.env.PATH, HOME: home, NO_COLOR: "1" }, cwd: home };
const runs = QUICK ? 10 : 40;
const loadBefore = os.loadavg()[0].toFixed(1);
const results = timeInterleaved(
  [
    { name: "node -e 0", argv: [process.execPath, "-e", "0"], options },
    { name: "node empty.mjs", argv: [process.execPath, emptyModule], options },
    { name: "indusr --version", argv: [process.execPath, BIN, "--version"], options },
    // The installed command (package.json `bin`): the CommonJS build of the same entry.
    { name: "indusr.cjs --version", argv: [process.execPath, BIN.replace(/\.js$/, ".cjs"), "--version"], options },
    { name: "indusr --help", argv: [process.execPath, BIN, "--help"], options },
    { name: "indusr tools --no-tools", argv: [process.execPath, BIN, "tools", "--no-tools"], options },
  ],
  runs,
);
const base = results.get("node -e 0").median;
console.log(
  `cold start, ${runs} interleaved runs each (median, p90; ratio = median / node -e 0; load ${loadBefore} -> ${os.loadavg()[0].toFixed(1)})`,
);
for (const [name, s] of results) {
  console.log(
    `  ${name.padEnd(26)} ${fmt(s.median).padStart(9)} ${fmt(s.p90).padStart(9)}   ${(s.median / base).toFixed(2)}x`,
  );
}
