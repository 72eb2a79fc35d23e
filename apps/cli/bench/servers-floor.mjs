// The floor of bench/mcp-status.mjs: the same servers started and asked for
// their tools by the least a Node client can do, a few lines of JSON over
// their pipes (no SDK, no validation: a floor to read the others against, not
// a client). Each server gets `initialize`, `notifications/initialized` and
// `tools/list`, then its stdin closes and it exits; the run ends when all
// have. Its CPU is what every Node client that connects the servers pays:
// Node itself and the servers' own start-up, which is most of it.
// Usage: node servers-floor.mjs <mcp.json>   (the `servers` object indusr reads)
import { spawn } from "node:child_process";
import fs from "node:fs";

const { servers } = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));

/** Starts `server`, asks for its tools, closes its stdin; resolves with how many tools it listed. */
function listOnce(server) {
  const child = spawn(server.command, server.args ?? [], {
    env: { ...process.env, ...server.env },
    stdio: ["pipe", "pipe", "ignore"],
  });
  const send = (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  const exited = new Promise((resolve) => child.on("exit", resolve));
  return new Promise((resolve, reject) => {
    let buffered = "";
    child.on("error", reject);
    child.stdout.on("data", (data) => {
      buffered += data;
      for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
        const message = JSON.parse(buffered.slice(0, end));
        buffered = buffered.slice(end + 1);
        if (message.id === 1) {
          send({ method: "notifications/initialized" });
          send({ id: 2, method: "tools/list", params: {} });
        } else if (message.id === 2) {
          child.stdin.end();
          exited.then(() => resolve(message.result.tools.length));
        }
      }
    });
    send({
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "floor", version: "0" } },
    });
  });
}

const counts = await Promise.all(Object.values(servers).map(listOnce));
process.stdout.write(`${counts.join(" ")}\n`);
