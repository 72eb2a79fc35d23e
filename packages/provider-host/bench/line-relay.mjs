// The floor under any stdio gateway: a process that only passes lines between
// its client and server-everything (each line parsed and re-serialized, as any
// bridge must, but no MCP handling). What it adds over a direct call is the
// extra process and its two pipe hops, which no gateway avoids.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { createInterface } from "node:readline";

const EVERYTHING = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/dist/index.js");

const server = spawn(process.execPath, [EVERYTHING, "stdio"], { stdio: ["pipe", "pipe", "ignore"] });
const relay = (from, to) =>
  createInterface({ input: from }).on("line", (line) => to.write(`${JSON.stringify(JSON.parse(line))}\n`));
relay(process.stdin, server.stdin);
relay(server.stdout, process.stdout);
process.stdin.on("end", () => {
  server.kill();
  process.exit(0);
});
