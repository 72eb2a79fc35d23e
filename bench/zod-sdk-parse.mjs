#!/usr/bin/env node
// The cost of the MCP SDK's per-message schema work under the zod the
// workspace pins, against another zod version (default: the newest 4.x), with
// the same SDK core (@modelcontextprotocol/core) in both. Each side runs in its
// own process (two zod copies in one process share zod's global config), the
// rounds alternate their order, and the load is printed beside each figure.
// What one "message" costs here is what the SDK does for one call on each
// side of a hop: the transport parses the line (JSONRPCMessageSchema), the
// protocol tells a request from a response (the result-response guard fails on
// a request), the server parses the tools/call request, the client its result.
//
//   node bench/zod-sdk-parse.mjs                 (other = zod@4, fetched from npm)
//   ZOD_OTHER=4.6.7 node bench/zod-sdk-parse.mjs (a given version)
// Needs the npm registry (it installs the other zod into a temporary folder);
// not part of bench/ci.sh for that reason.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const CALLS = 20_000;

if (process.argv[2] === "--child") await child(process.argv[3]);
else await parent();

/** One side: import the SDK core from `dir`, warm up, print microseconds per message set. */
async function child(dir) {
  const core = await import(pathToFileURL(join(dir, "node_modules/@modelcontextprotocol/core/dist/index.mjs")).href);
  const request = {
    jsonrpc: "2.0",
    id: 5,
    method: "tools/call",
    params: { name: "echo", arguments: { message: "m1" } },
  };
  const response = { jsonrpc: "2.0", id: 5, result: { content: [{ type: "text", text: "Echo: m1" }] } };
  const oneCall = () => {
    core.JSONRPCMessageSchema.parse(request);
    core.JSONRPCResultResponseSchema.safeParse(request);
    core.CallToolRequestSchema.parse(request);
    core.JSONRPCMessageSchema.parse(response);
    core.CallToolResultSchema.parse(response.result);
  };
  for (let i = 0; i < CALLS / 2; i++) oneCall();
  const start = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) oneCall();
  const zod = JSON.parse(readFileSync(join(dir, "node_modules/zod/package.json"), "utf8")).version;
  console.log(JSON.stringify({ zod, us: Number(process.hrtime.bigint() - start) / CALLS / 1000 }));
}

/** A folder holding a copy of the SDK core beside the given zod folder. */
function side(work, name, zodDir) {
  const dir = join(work, name);
  mkdirSync(join(dir, "node_modules/@modelcontextprotocol"), { recursive: true });
  cpSync(sdkCore(), join(dir, "node_modules/@modelcontextprotocol/core"), { recursive: true });
  symlinkSync(zodDir, join(dir, "node_modules/zod"));
  return dir;
}

async function parent() {
  const work = mkdtempSync(join(tmpdir(), "indus-zod-bench-"));
  process.on("exit", () => rmSync(work, { recursive: true, force: true }));
  // pnpm lays a package's dependencies beside it: the SDK core's zod is the one it runs with.
  const pinnedZod = realpathSync(join(sdkCore(), "..", "..", "zod"));
  const other = process.env.ZOD_OTHER ?? "4";
  const fetched = join(work, "fetched");
  execFileSync("npm", ["install", "--prefix", fetched, "--no-save", "--no-package-lock", `zod@${other}`], {
    stdio: "ignore",
  });
  const sides = {
    pinned: side(work, "pinned", pinnedZod),
    other: side(work, "other", join(fetched, "node_modules/zod")),
  };
  const self = fileURLToPath(import.meta.url);
  const run = (name) =>
    JSON.parse(execFileSync(process.execPath, [self, "--child", sides[name]], { encoding: "utf8" }));
  const ratios = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ["pinned", "other"] : ["other", "pinned"];
    const load = loadAverage();
    const got = Object.fromEntries(order.map((name) => [name, run(name)]));
    const ratio = got.other.us / got.pinned.us;
    ratios.push(ratio);
    console.log(
      `round ${round + 1}: zod ${got.pinned.zod} ${got.pinned.us.toFixed(2)} us, zod ${got.other.zod} ` +
        `${got.other.us.toFixed(2)} us per call's messages; other/pinned ${ratio.toFixed(2)}x  (load ${load} -> ${loadAverage()})`,
    );
  }
  ratios.sort((a, b) => a - b);
  console.log(
    `other/pinned median ${ratios[Math.floor(ratios.length / 2)].toFixed(2)}x ` +
      `(min ${ratios[0].toFixed(2)}, max ${ratios.at(-1).toFixed(2)}) over ${ROUNDS} rounds`,
  );
}

/** The SDK core the client package runs with (pnpm: beside the client). */
function sdkCore() {
  const client = realpathSync(
    join(dirname(fileURLToPath(import.meta.url)), "..", "node_modules/@modelcontextprotocol/client"),
  );
  return realpathSync(join(client, "..", "core"));
}

function loadAverage() {
  return readFileSync("/proc/loadavg", "utf8").split(" ")[0];
}
