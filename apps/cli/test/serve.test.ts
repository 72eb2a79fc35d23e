import { spawn, type ChildProcess } from "node:child_process";
import { createServerEndpoint, type EndpointOptions } from "@indus/endpoint";
import { stdioServer, streamableHttpServer } from "@indus/contract";
import { UNHURRIED_DEADLINES } from "@indus/testkit";
import { BIN, makeSandbox, runCli, type Sandbox } from "./support/run-cli";
import { everythingRow, fixtureRow, writeConfig } from "./support/servers";

jest.setTimeout(120_000);

let sandbox: Sandbox;
beforeEach(() => {
  sandbox = makeSandbox();
});
afterEach(() => sandbox.cleanup());

/** An endpoint on `indusr mcp serve --stdio` for the servers in `config`, run in `box`. */
function stdioGateway(config: string, options?: EndpointOptions, flags: readonly string[] = [], box = sandbox) {
  return createServerEndpoint(
    {
      ...stdioServer(
        "gw",
        process.execPath,
        [BIN, "mcp", "serve", "--stdio", ...flags, "--mcp", config],
        box.env as Record<string, string>,
      ),
      // Past the gateway's boot wait (INDUSR_BOOT_WAIT_MS) and the test's ceiling.
      ...UNHURRIED_DEADLINES,
      cwd: box.cwd,
    },
    undefined,
    options,
  );
}

describe("indusr mcp serve", () => {
  it("serves the read-only deck plus mounted servers over stdio to an MCP client", async () => {
    const config = writeConfig(sandbox.root, { everything: everythingRow() });
    const endpoint = stdioGateway(config);
    try {
      await endpoint.open();
      const tools = await endpoint.listTools();
      const names = tools.map((t) => t.ref.name);
      expect(names).toEqual(expect.arrayContaining(["read", "ls", "grep", "find", "todo_read", "everything__echo"]));
      // Authoring is the serving default: no mutating built-ins.
      expect(names).not.toContain("write");
      expect(names).not.toContain("bash");
      const read = tools.find((t) => t.ref.name === "read");
      expect(read?.descriptor.annotations?.readOnlyHint).toBe(true);
      const echoed = await endpoint.invoke("everything__echo", { message: "through the gateway" });
      expect(echoed).toMatchObject({ isError: false, content: [{ type: "text", text: "Echo: through the gateway" }] });
      const missing = await endpoint.invoke("read", { path: "nope.txt" });
      expect(missing.isError).toBe(true);
      // The mounted server's resources and prompts are republished, prompts namespaced.
      expect((await endpoint.listResources()).length).toBeGreaterThan(0);
      const prompts = (await endpoint.listPrompts()).map((p) => (typeof p.name === "string" ? p.name : ""));
      expect(prompts.length).toBeGreaterThan(0);
      expect(prompts.every((name) => name.startsWith("everything__"))).toBe(true);
    } finally {
      await endpoint.close();
    }
  });

  describe("a mounted task-only tool", () => {
    // The tests only list and call (a research query changes nothing): one gateway, and server-everything
    // behind it, serves both. The research tool is not annotated read-only: only a profile that publishes
    // every tool has it.
    const elicit = jest.fn(() => Promise.resolve({ action: "accept" as const, content: { interpretation: "snake" } }));
    let own: Sandbox;
    let endpoint: ReturnType<typeof stdioGateway>;
    beforeAll(async () => {
      own = makeSandbox();
      const config = writeConfig(own.root, { everything: everythingRow() });
      endpoint = stdioGateway(config, { host: { elicit } }, ["--profile", "survey"], own);
      await endpoint.open();
    });
    afterAll(async () => {
      await endpoint.close();
      own.cleanup();
    });

    it("is republished as a plain tool and its task runs behind the call", async () => {
      const research = (await endpoint.listTools()).find((t) => t.ref.name === "everything__simulate-research-query");
      expect(research?.descriptor.wire).toBeDefined();
      expect(research?.descriptor.wire?.["execution"]).toBeUndefined();
      const result = await endpoint.invoke("everything__simulate-research-query", { topic: "zig" });
      expect(JSON.stringify(result.content)).toContain("# Research Report: zig");
    });

    it("asks the gateway's client the mounted task's clarification (input_required behind the call)", async () => {
      const args = { topic: "python", ambiguous: true };
      const result = await endpoint.invoke("everything__simulate-research-query", args);
      expect(JSON.stringify(result.content)).toContain("# Research Report: python (snake)");
      expect(elicit).toHaveBeenCalledTimes(1);
    });
  });

  it("serves Streamable HTTP on loopback, with mutating tools only when the profile asks", async () => {
    const config = writeConfig(sandbox.root, { everything: everythingRow() });
    const child = spawn(
      process.execPath,
      [BIN, "mcp", "serve", "--http", "--port", "0", "--profile", "survey", "--mcp", config],
      {
        cwd: sandbox.cwd,
        env: sandbox.env,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    try {
      const url = await servedUrl(child);
      const endpoint = createServerEndpoint({ ...streamableHttpServer("gw", url), ...UNHURRIED_DEADLINES });
      try {
        await endpoint.open();
        const names = (await endpoint.listTools()).map((t) => t.ref.name);
        expect(names).toEqual(expect.arrayContaining(["write", "bash", "everything__echo"]));
        const result = await endpoint.invoke("everything__echo", { message: "http" });
        expect(result.content).toEqual([{ type: "text", text: "Echo: http" }]);
      } finally {
        await endpoint.close();
      }
    } finally {
      await stop(child);
    }
  });

  it("refuses to bind off loopback without a token", async () => {
    const result = await runCli(["mcp", "serve", "--http", "--host", "0.0.0.0", "--port", "0", "--no-tools"], {
      sandbox,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/INDUSR_SERVE_TOKEN/);
  });

  it("mints 2025-era session ids with the replica marker given by --session-prefix", async () => {
    const child = spawn(
      process.execPath,
      [BIN, "mcp", "serve", "--http", "--port", "0", "--no-tools", "--session-prefix", "r1."],
      { cwd: sandbox.cwd, env: sandbox.env, stdio: ["ignore", "pipe", "pipe"] },
    );
    try {
      const response = await fetch(await servedUrl(child), {
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
      await stop(child);
    }
  });

  it("rejects a session prefix that cannot start a header value", async () => {
    const result = await runCli(["mcp", "serve", "--http", "--port", "0", "--session-prefix", "a b"], { sandbox });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--session-prefix must be 1-32 visible ASCII characters");
  });

  it("answers what a client sent while the mounted servers were still starting", async () => {
    const slow = fixtureRow("modern-server.mjs", "delay=1500");
    const config = writeConfig(sandbox.root, { slow });
    const child = spawn(
      process.execPath,
      [BIN, "mcp", "serve", "--stdio", "--no-builtins", "--profile", "survey", "--mcp", config],
      {
        cwd: sandbox.cwd,
        env: sandbox.env,
        stdio: ["pipe", "pipe", "ignore"],
      },
    );
    try {
      // All at once, before the gateway can have booted (the server is silent for 1.5 s).
      const lines = [
        {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "early", version: "1" } },
        },
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", id: 2, method: "tools/list" },
      ];
      child.stdin.write(lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
      const listed = await responseTo(child, 2);
      expect(listed.result.tools.map((tool: { name: string }) => tool.name)).toContain("slow__echo");
    } finally {
      await stop(child);
    }
  });

  it("rejects contradictory transports", async () => {
    const result = await runCli(["mcp", "serve", "--stdio", "--http"], { sandbox });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("choose --stdio or --http, not both");
  });
});

/** The response to request `id` on a raw stdio child's stdout. */
function responseTo(child: ChildProcess, id: number): Promise<{ result: { tools: { name: string }[] } }> {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      for (const line of out.split("\n")) {
        if (line.trim() === "") continue;
        const message = JSON.parse(line) as { id?: number; result: { tools: { name: string }[] } };
        if (message.id === id) resolve(message);
      }
    });
    child.once("exit", (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
}

/** The endpoint URL `indusr mcp serve --http` announces on stderr once listening. */
function servedUrl(child: ChildProcess): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let err = "";
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      err += chunk;
      const match = /at (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
  });
}
