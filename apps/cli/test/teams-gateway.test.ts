/**
 * examples/teams/up.sh end to end: a real OpenID provider on loopback and
 * `indusr mcp serve --http` mounting server-everything and server-memory
 * behind OAuth with the example's access policy. indusr itself is the client:
 * it signs in with client credentials and in a real browser (headless
 * Chromium), and calls in both eras; `memory-agent` sees only memory's tools
 * and every attempt outside them fails (both eras, and on a `--stateless`
 * gateway); the audit log and
 * `/metrics` account for every call; SIGTERM stops everything up.sh started.
 */
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { freePort, waitFor } from "@indus/testkit";
import { loginThroughBrowser } from "./support/browser-login";
import { makeSandbox, runCli, type Sandbox } from "./support/run-cli";
import { writeConfig } from "./support/servers";

jest.setTimeout(300_000);

const REPO = path.join(__dirname, "..", "..", "..");
const UP = path.join(REPO, "examples", "teams", "up.sh");
const SECRETS = { FULL_SECRET: "full-agent-secret", MEMORY_SECRET: "memory-agent-secret" };

interface Example {
  readonly child: ChildProcess;
  readonly lines: Record<string, string>;
  readonly gateway: URL;
  stop(): Promise<number | null>;
}

/**
 * The example's config and lock file, copied into `state`: the gateway may
 * pin a kind its shipped lock file has not listed yet, and a test must never
 * change a tracked file.
 */
function copiedConfig(state: string): string {
  fs.mkdirSync(state, { recursive: true });
  for (const file of ["mcp.json", "mcp.lock.json"])
    fs.copyFileSync(path.join(REPO, "examples", "teams", file), path.join(state, file));
  return path.join(state, "mcp.json");
}

async function startExample(state: string, gatewayArgs = ""): Promise<Example> {
  const port = await freePort();
  const env = { GATEWAY_PORT: String(port), INDUS_TEAMS_STATE: state, GATEWAY_ARGS: gatewayArgs };
  const child = spawn("bash", [UP], {
    env: { ...process.env, ...env, TEAMS_MCP: copiedConfig(state) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const lines: Record<string, string> = {};
  await new Promise<void>((resolve, reject) => {
    readline.createInterface({ input: child.stdout }).on("line", (line) => {
      const at = line.indexOf("=");
      if (at > 0) lines[line.slice(0, at)] = line.slice(at + 1);
      if (line.startsWith("AUDIT_LOG=")) resolve();
    });
    void exited.then((code) => reject(new Error(`up.sh exited ${code}: ${stderr}`)));
  });
  return {
    child,
    lines,
    gateway: new URL(lines["GATEWAY_URL"]!),
    stop: () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

/** A config naming the gateway once per agent and era. */
function clientConfig(sandbox: Sandbox, gateway: URL): string {
  const row = (clientId: string, secretEnv: string, protocol: string) => ({
    url: gateway.href,
    protocol,
    oauth: { grant: "client_credentials", clientId, clientSecretEnv: secretEnv },
  });
  return writeConfig(sandbox.root, {
    full: row("full-agent", "FULL_SECRET", "2026-07-28"),
    fulllegacy: row("full-agent", "FULL_SECRET", "legacy"),
    mem: row("memory-agent", "MEMORY_SECRET", "2026-07-28"),
    memlegacy: row("memory-agent", "MEMORY_SECRET", "legacy"),
  });
}

async function token(issuer: string, gateway: URL, clientId: string, secret: string): Promise<string> {
  const response = await fetch(`${issuer}/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString("base64")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ grant_type: "client_credentials", resource: gateway.href, scope: "mcp:tools" }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Every way out of memory's set: each must fail. */
const OUTSIDE: ((client: Client) => Promise<unknown>)[] = [
  (client) => client.callTool({ name: "everything__echo", arguments: { message: "x" } }),
  (client) => client.callTool({ name: "everything__get-sum", arguments: { a: 1, b: 2 } }),
  (client) => client.readResource({ uri: "demo://resource/static/document/architecture.md" }),
  (client) => client.getPrompt({ name: "everything__simple-prompt", arguments: {} }),
  (client) =>
    client.complete({
      ref: { type: "ref/prompt", name: "everything__args-prompt" },
      argument: { name: "city", value: "B" },
    }),
];

async function refusedOutOf100(gateway: URL, bearer: string, modern: boolean): Promise<number> {
  const client = new Client(
    { name: "memory-agent", version: "1" },
    modern ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
  );
  await client.connect(
    new StreamableHTTPClientTransport(gateway, { requestInit: { headers: { authorization: `Bearer ${bearer}` } } }),
  );
  const tools = (await client.listTools()).tools.map((tool) => tool.name);
  expect(tools.length).toBeGreaterThan(0);
  expect(tools.every((name) => name.startsWith("memory__"))).toBe(true);
  let refused = 0;
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      const result = (await OUTSIDE[attempt % OUTSIDE.length]!(client)) as { isError?: boolean };
      if (result.isError === true) refused++;
    } catch {
      refused++;
    }
  }
  await client.close();
  return refused;
}

describe("examples/teams/up.sh", () => {
  let sandbox: Sandbox;
  let example: Example;
  let config: string;
  const env = () => ({ XDG_STATE_HOME: path.join(sandbox.root, "state"), ...SECRETS });

  beforeAll(async () => {
    sandbox = makeSandbox();
    example = await startExample(path.join(sandbox.root, "teams"));
    config = clientConfig(sandbox, example.gateway);
  });
  afterAll(async () => {
    if (example !== undefined) await example.stop();
    sandbox?.cleanup();
  });

  it("prints what a client needs, one a line", () => {
    expect(Object.keys(example.lines)).toEqual([
      "GATEWAY_URL",
      "ISSUER_URL",
      "FULL_CLIENT",
      "MEMORY_CLIENT",
      "AUDIT_LOG",
    ]);
    expect(example.lines["FULL_CLIENT"]).toBe("full-agent:full-agent-secret");
    expect(example.lines["MEMORY_CLIENT"]).toBe("memory-agent:memory-agent-secret");
  });

  it("lets indusr sign in with client credentials in both eras: full-agent gets everything, memory-agent memory", async () => {
    const status = await runCli(["mcp", "status", "--json", "--mcp", config], { sandbox, env: env() });
    const rows = JSON.parse(status.stdout) as { name: string; phase: string; era: string; tools: number }[];
    const byName = Object.fromEntries(rows.map((row) => [row.name, row]));
    expect(byName["full"]).toMatchObject({ phase: "ready", era: "2026-07-28" });
    expect(byName["fulllegacy"]).toMatchObject({ phase: "ready", era: "legacy" });
    expect(byName["mem"]).toMatchObject({ phase: "ready", tools: 9 });
    expect(byName["memlegacy"]).toMatchObject({ phase: "ready", tools: 9 });
    expect(byName["full"]!.tools).toBeGreaterThan(9);
    for (const server of ["full", "fulllegacy"]) {
      const call = await runCli(["call", `${server}__everything__echo`, '{"message":"team"}', "--mcp", config], {
        sandbox,
        env: env(),
      });
      expect(call.stdout).toContain("Echo: team");
    }
    const memory = await runCli(["call", "memlegacy__memory__read_graph", "{}", "--mcp", config], {
      sandbox,
      env: env(),
    });
    expect(memory.code).toBe(0);
    const outside = await runCli(["call", "mem__everything__echo", '{"message":"x"}', "--mcp", config], {
      sandbox,
      env: env(),
    });
    expect(outside.code).not.toBe(0);
  });

  it("lets a person sign in with indusr mcp login in a browser and call in both eras", async () => {
    const web = writeConfig(
      sandbox.root,
      {
        web: { url: example.gateway.href, protocol: "2026-07-28" },
        weblegacy: { url: example.gateway.href, protocol: "legacy" },
      },
      "web.json",
    );
    for (const server of ["web", "weblegacy"]) {
      const login = await loginThroughBrowser(sandbox, server, web, env());
      expect(login.landed).toContain("indusr has your sign-in");
      expect(login.code).toBe(0);
      expect(login.stderr).toContain(`Signed in to "${server}"`);
      // alice is in group engineering: the policy gives engineers everything.
      const call = await runCli(["call", `${server}__everything__echo`, '{"message":"alice"}', "--mcp", web], {
        sandbox,
        env: env(),
      });
      expect(call.stdout).toContain("Echo: alice");
    }
  });

  it("refuses 100 of 100 of memory-agent's attempts outside memory, in both eras", async () => {
    const bearer = await token(example.lines["ISSUER_URL"]!, example.gateway, "memory-agent", SECRETS.MEMORY_SECRET);
    for (const modern of [false, true]) expect(await refusedOutOf100(example.gateway, bearer, modern)).toBe(100);
  });

  it("audits every call with its caller and trace id, and never an argument value or a token", async () => {
    const bearer = await token(example.lines["ISSUER_URL"]!, example.gateway, "full-agent", SECRETS.FULL_SECRET);
    const metrics = async () => {
      const text = await (await fetch(new URL("/metrics", example.gateway))).text();
      const line = text
        .split("\n")
        .find((l) =>
          l.startsWith('indus_gateway_requests_total{method="tools/call",server="everything",outcome="ok"}'),
        );
      return Number(line?.split(" ")[1] ?? 0);
    };
    const before = await metrics();
    const client = new Client({ name: "audited", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(example.gateway, {
        requestInit: { headers: { authorization: `Bearer ${bearer}` } },
      }),
    );
    const secret = `do-not-log-${Date.now()}`;
    for (let i = 0; i < 20; i++) await client.callTool({ name: "everything__echo", arguments: { message: secret } });
    await client.close();
    expect((await metrics()) - before).toBe(20);
    const audit = example.lines["AUDIT_LOG"]!;
    const text = await waitFor("20 calls of full-agent in the audit log", () => {
      const now = fs.readFileSync(audit, "utf8");
      return countCalls(now, "full-agent") >= 20 ? now : undefined;
    });
    expect(text).not.toContain(secret);
    expect(text).not.toContain(bearer);
    expect(text).not.toContain(SECRETS.FULL_SECRET);
    for (const line of text.trim().split("\n")) {
      const entry = JSON.parse(line) as { traceId?: string; caller?: object };
      expect(entry.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(entry.caller).toBeDefined();
    }
  });
});

describe("examples/teams/up.sh with a --stateless gateway", () => {
  it("refuses 100 of 100 of memory-agent's attempts outside memory, in both eras; SIGTERM stops everything", async () => {
    const sandbox = makeSandbox();
    const example = await startExample(path.join(sandbox.root, "teams"), "--stateless");
    try {
      const bearer = await token(example.lines["ISSUER_URL"]!, example.gateway, "memory-agent", SECRETS.MEMORY_SECRET);
      for (const modern of [false, true]) expect(await refusedOutOf100(example.gateway, bearer, modern)).toBe(100);
    } finally {
      expect(await example.stop()).toBe(0);
      sandbox.cleanup();
    }
    for (const url of [example.gateway, new URL(example.lines["ISSUER_URL"]!)]) {
      await expect(fetch(url)).rejects.toThrow();
    }
  });
});

function countCalls(text: string, clientId: string): number {
  return text
    .split("\n")
    .filter((line) => line.includes('"method":"tools/call"') && line.includes(`"clientId":"${clientId}"`)).length;
}
