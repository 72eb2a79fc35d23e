import { spawn } from "node:child_process";
import { BIN, makeSandbox, runCli, type Sandbox } from "./support/run-cli";

jest.setTimeout(60_000);

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

describe("indusr mcp serve for replicas behind a proxy", () => {
  it("mints 2025-era session ids with the replica marker", async () => {
    const child = spawn(
      process.execPath,
      [BIN, "mcp", "serve", "--http", "--port", "0", "--no-tools", "--session-prefix", "r1."],
      { cwd: sandbox.cwd, env: sandbox.env, stdio: ["ignore", "pipe", "pipe"] },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let err = "";
        child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
          err += chunk;
          const match = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
          if (match) resolve(match[1]!);
        });
        child.once("exit", (code) => reject(new Error(`serve exited ${code}: ${err}`)));
      });
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
        }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get("mcp-session-id")).toMatch(/^r1\./);
    } finally {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    }
  });

  it("rejects a session prefix that cannot start a header value", async () => {
    const result = await runCli(["mcp", "serve", "--http", "--port", "0", "--session-prefix", "a b"], { sandbox });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--session-prefix must be 1-32 visible ASCII characters");
  });
});
