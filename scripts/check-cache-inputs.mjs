#!/usr/bin/env node
/**
 * Turbo's cache must not go stale: editing a shared config or a shared test
 * helper has to make the next `turbo run typecheck` miss. For each probe edit
 * this asks turbo (a dry run: nothing executes) which typecheck tasks would
 * hit, after a full typecheck has been cached, and restores the file byte for
 * byte. Run in CI after `pnpm test`: `node scripts/check-cache-inputs.mjs`.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Each probe: a harmless edit, and the typecheck tasks that must miss after it. */
const PROBES = [
  { file: "tsconfig.base.json", append: "\n", mustMiss: "every" },
  {
    file: "packages/testkit/src/servers.ts",
    append: "\n// cache probe\n",
    mustMiss: ["@indus/endpoint#typecheck", "@indus/fleet#typecheck", "indusr#typecheck"],
  },
];

function typecheckCache() {
  const out = execFileSync("pnpm", ["exec", "turbo", "run", "typecheck", "--dry=json"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1" },
  });
  const plan = JSON.parse(out.slice(out.indexOf("{")));
  return new Map(plan.tasks.filter((t) => t.task === "typecheck").map((t) => [t.taskId, t.cache.status]));
}

function withEdit(file, append, read) {
  const full = path.join(root, file);
  const original = fs.readFileSync(full);
  fs.appendFileSync(full, append);
  try {
    return read();
  } finally {
    fs.writeFileSync(full, original);
  }
}

let failed = false;
const before = typecheckCache();
const hits = [...before].filter(([, status]) => status === "HIT").map(([id]) => id);
console.log(`cache probe: ${hits.length} of ${before.size} typecheck tasks hit before any edit`);
for (const probe of PROBES) {
  const after = withEdit(probe.file, probe.append, typecheckCache);
  const expected = probe.mustMiss === "every" ? [...after.keys()] : probe.mustMiss;
  const cold = expected.filter((id) => before.get(id) !== "HIT");
  if (cold.length > 0) {
    failed = true;
    console.error(`cache probe: ${cold.join(", ")} did not hit before the edit; run \`turbo run typecheck\` first`);
    continue;
  }
  const stale = expected.filter((id) => after.get(id) !== "MISS");
  if (stale.length > 0) {
    failed = true;
    console.error(`cache probe: editing ${probe.file} left ${stale.join(", ")} a cache hit (stale)`);
  } else {
    console.log(`cache probe: editing ${probe.file} makes ${expected.length} typecheck task(s) miss, as it must`);
  }
}
if (JSON.stringify([...typecheckCache()]) !== JSON.stringify([...before])) {
  failed = true;
  console.error("cache probe: the cache state changed after restoring the edited files");
}
process.exit(failed ? 1 : 0);
