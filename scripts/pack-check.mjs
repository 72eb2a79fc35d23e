#!/usr/bin/env node
// Proves every package installs as its users get it: packs the eight libraries
// and indusr (`pnpm pack` turns workspace:/catalog: ranges into versions),
// then, for each library and for npm and pnpm, installs it alone from its
// tarball (the @indus/* tarballs it depends on come in as what the registry
// would give) into an empty folder and runs its README example verbatim, as
// ESM (the first ```js block) and as CommonJS (the first ```cjs block). When
// the README shows the output ("It prints:" + ```text), it must match. Under
// pnpm the dependencies stay undeclared for the consumer, so an example that
// imports a package it does not install fails, as it would for a user.
// Last, `npm install -g` the indusr tarball into a private prefix and run
// `indusr --version` and `indusr tools`.
// Run after `pnpm build`: `node scripts/pack-check.mjs` (ONLY=ledger,deck to
// narrow, KEEP=1 keeps the folder, JOBS=n for parallel installs).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const LIBS = ["contract", "schema-normalizer", "ledger", "state-file", "endpoint", "fleet", "provider-host", "deck"];
const only = process.env.ONLY ? new Set(process.env.ONLY.split(",")) : undefined;
const jobs = Number(process.env.JOBS ?? 4);
// The README examples start `mcp-server-everything` from PATH, as their users are told to install it.
const PATH = `${path.join(root, "node_modules", ".bin")}${path.delimiter}${process.env.PATH}`;

/** Runs a command; resolves with its output, rejects with it (and the exit code) on failure. */
function run(cmd, args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: options.cwd,
      env: { ...process.env, PATH, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 180_000);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ out, err });
      else reject(new Error(`${cmd} ${args.join(" ")} exited ${code ?? signal}\n${err || out}`.trim()));
    });
  });
}

async function pool(items, size, work) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
  return results;
}

/** The first fenced block of `lang`, and the output block that follows "It prints:" if any. */
function example(readme, lang) {
  const match = new RegExp("```" + lang + "\\n([\\s\\S]*?)```").exec(readme);
  if (!match) return undefined;
  const after = readme.slice(match.index + match[0].length);
  const printed = /^\s*It prints:\s*```text\n([\s\S]*?)```/.exec(after);
  return { code: match[1], ...(printed ? { expected: printed[1] } : {}) };
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "indus-pack-check-"));
const started = Date.now();
const failures = [];
try {
  // 1. Pack.
  const tarDir = path.join(tmp, "tarballs");
  fs.mkdirSync(tarDir);
  const dirs = [...LIBS.map((l) => path.join(root, "packages", l)), path.join(root, "apps", "cli")];
  await pool(dirs, jobs, (dir) => run("pnpm", ["pack", "--pack-destination", tarDir], { cwd: dir }));
  const tarballs = new Map();
  for (const file of fs.readdirSync(tarDir)) {
    const manifest = JSON.parse((await run("tar", ["-xzOf", path.join(tarDir, file), "package/package.json"])).out);
    const listing = (await run("tar", ["-tzf", path.join(tarDir, file)])).out.trim().split("\n");
    tarballs.set(manifest.name, { file: path.join(tarDir, file), manifest, listing });
  }
  console.log(
    `pack-check: packed ${[...tarballs.keys()].join(", ")} (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );

  // 2. What every tarball must (not) hold.
  for (const [name, { listing }] of tarballs) {
    if (!listing.includes("package/LICENSE")) failures.push(`${name}: no LICENSE in the tarball`);
    if (!listing.includes("package/README.md")) failures.push(`${name}: no README.md in the tarball`);
  }
  const cli = tarballs.get("indusr");
  if (cli.listing.some((f) => f.endsWith(".map"))) failures.push("indusr: source maps in the tarball");
  if (!cli.listing.includes("package/dist/THIRD-PARTY-NOTICES.md")) failures.push("indusr: no third-party notices");

  // 3. Each library alone, with npm and with pnpm, ESM and CommonJS.
  const indusDeps = (name, seen = new Set()) => {
    for (const dep of Object.keys(tarballs.get(name).manifest.dependencies ?? {}))
      if (dep.startsWith("@indus/") && !seen.has(dep)) {
        seen.add(dep);
        indusDeps(dep, seen);
      }
    return seen;
  };
  const cases = LIBS.filter((l) => !only || only.has(l)).flatMap((lib) => [
    { lib, pm: "npm" },
    { lib, pm: "pnpm" },
  ]);
  const rows = await pool(cases, jobs, async ({ lib, pm }) => {
    const name = `@indus/${lib}`;
    const dir = path.join(tmp, `${lib}-${pm}`);
    fs.mkdirSync(dir);
    const deps = [...indusDeps(name)];
    const tgz = (n) => `file:${tarballs.get(n).file}`;
    const row = { lib, pm, install: "-", esm: "-", cjs: "-", ms: 0 };
    const t0 = Date.now();
    try {
      if (pm === "npm") {
        fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true }));
        await run(
          "npm",
          [
            "install",
            "--prefer-offline",
            "--no-audit",
            "--no-fund",
            tarballs.get(name).file,
            ...deps.map((d) => tarballs.get(d).file),
          ],
          { cwd: dir },
        );
      } else {
        // Only the package itself is a dependency; its @indus/* dependencies resolve to their tarballs.
        const pkg = {
          name: "consumer",
          private: true,
          dependencies: { [name]: tgz(name) },
          pnpm: { overrides: Object.fromEntries(deps.map((d) => [d, tgz(d)])) },
        };
        fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg));
        await run("pnpm", ["install", "--prefer-offline", "--config.strict-peer-dependencies=false"], { cwd: dir });
      }
      row.install = "ok";
      const readme = fs.readFileSync(path.join(dir, "node_modules", name, "README.md"), "utf8");
      for (const [lang, file, key] of [
        ["js", "example.mjs", "esm"],
        ["cjs", "example.cjs", "cjs"],
      ]) {
        const ex = example(readme, lang);
        if (!ex) {
          row[key] = "missing";
          failures.push(`${name} (${pm}): README has no \`\`\`${lang} example`);
          continue;
        }
        fs.writeFileSync(path.join(dir, file), ex.code);
        try {
          const { out } = await run(process.execPath, [file], { cwd: dir, timeoutMs: 90_000 });
          if (ex.expected !== undefined && out !== ex.expected) {
            row[key] = "differs";
            failures.push(`${name} (${pm}, ${key}): printed\n${out}\nbut the README says\n${ex.expected}`);
          } else row[key] = "ok";
        } catch (error) {
          row[key] = "FAIL";
          failures.push(`${name} (${pm}, ${key}): ${error.message}`);
        }
      }
    } catch (error) {
      row.install = "FAIL";
      failures.push(`${name} (${pm}) install: ${error.message}`);
    }
    row.ms = Date.now() - t0;
    return row;
  });

  // 4. indusr as users install it.
  const prefix = path.join(tmp, "prefix");
  const home = path.join(tmp, "home");
  const empty = path.join(tmp, "empty-project");
  fs.mkdirSync(home);
  fs.mkdirSync(empty);
  let cliRow = "FAIL";
  try {
    await run("npm", ["install", "-g", "--prefer-offline", "--no-audit", "--no-fund", "--prefix", prefix, cli.file]);
    const bin = path.join(prefix, "bin", "indusr");
    const env = { HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), NO_COLOR: "1" };
    const version = (await run(bin, ["--version"], { cwd: empty, env })).out.trim();
    if (version !== cli.manifest.version) throw new Error(`indusr --version printed ${version}`);
    const tools = (await run(bin, ["tools"], { cwd: empty, env })).out;
    if (!/\bread\b/.test(tools)) throw new Error(`indusr tools printed no read tool:\n${tools}`);
    cliRow = `ok (--version ${version}; tools: ${tools.trim().split("\n").at(-1)})`;
  } catch (error) {
    failures.push(`indusr: ${error.message}`);
  }

  console.log("\npackage                    pm    install  esm      cjs      time");
  for (const r of rows)
    console.log(
      `${`@indus/${r.lib}`.padEnd(27)}${r.pm.padEnd(6)}${r.install.padEnd(9)}${r.esm.padEnd(9)}${r.cjs.padEnd(9)}${(r.ms / 1000).toFixed(1)} s`,
    );
  console.log(`indusr (npm install -g)    ${cliRow}`);
  const passed = new Set(LIBS);
  for (const r of rows) if (r.install !== "ok" || r.esm !== "ok" || r.cjs !== "ok") passed.delete(r.lib);
  const cliOk = cliRow.startsWith("ok");
  const total = (only ? LIBS.filter((l) => only.has(l)).length : LIBS.length) + 1;
  const good = [...passed].filter((l) => !only || only.has(l)).length + (cliOk ? 1 : 0);
  console.log(
    `\npack-check: ${good} of ${total} packages install alone and run their README example (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
} finally {
  if (process.env.KEEP === "1") console.log(`pack-check: kept ${tmp}`);
  else fs.rmSync(tmp, { recursive: true, force: true });
}
if (failures.length > 0) {
  console.error(`\npack-check: ${failures.length} problem(s):\n- ${failures.join("\n- ")}`);
  process.exitCode = 1;
}
