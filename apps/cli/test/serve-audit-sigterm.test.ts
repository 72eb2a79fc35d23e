/**
 * `indusr mcp serve --http --audit-log`: the audit log writes its lines in
 * batches (up to 100 ms late), so a gateway stopped by SIGTERM right after
 * its last answer still holds lines in memory. None may be lost: every call
 * answered before the signal has its line in the file once the process is
 * gone, in both eras.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { FIXTURES } from "@indus/testkit";
import { servedUrl, stopChild } from "./support/relay-client";
import { BIN, makeSandbox, type Sandbox } from "./support/run-cli";
import { writeConfig } from "./support/servers";

jest.setTimeout(120_000);

let sandbox: Sandbox;

beforeAll(() => {
  sandbox = makeSandbox();
});

afterAll(() => sandbox.cleanup());

const CALLS = 40;

it("has every answered call's line in the audit log after SIGTERM, in both eras", async () => {
  const scripted = path.join(FIXTURES, "scripted-server.mjs");
  const config = writeConfig(sandbox.root, {
    fixture: { command: process.execPath, args: [scripted, "name=fixture"] },
  });
  const audit = path.join(sandbox.root, "audit", "gateway.log");
  const child = spawn(
    process.execPath,
    [
      ...[BIN, "mcp", "serve", "--http", "--port", "0", "--no-builtins", "--profile", "survey"],
      ...["--audit-log", audit, "--mcp", config],
    ],
    { cwd: sandbox.cwd, env: sandbox.env, stdio: ["ignore", "ignore", "pipe"] },
  );
  const clients: Client[] = [];
  try {
    const url = await servedUrl(child);
    clients.push(
      new Client({ name: "legacy", version: "1" }, { capabilities: {} }),
      new Client({ name: "modern", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } }),
    );
    for (const client of clients) await client.connect(new StreamableHTTPClientTransport(url));
    // The two clients call at once, so the last answers leave together, just before the signal.
    await Promise.all(
      clients.map(async (client, index) => {
        for (let i = 0; i < CALLS; i++) {
          await client.callTool({ name: "fixture__echo", arguments: { message: `c${index}-${i}` } });
        }
      }),
    );
    await stopChild(child);
    await Promise.all(clients.map((client) => client.close().catch(() => {})));
    const lines = fs
      .readFileSync(audit, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const calls = lines.filter((line) => line["method"] === "tools/call" && line["outcome"] === "ok");
    expect(calls.filter((line) => line["era"] === "2026-07-28")).toHaveLength(CALLS);
    expect(calls.filter((line) => line["era"] !== "2026-07-28")).toHaveLength(CALLS);
  } finally {
    await stopChild(child);
    await Promise.all(clients.map((client) => client.close().catch(() => {})));
  }
});
