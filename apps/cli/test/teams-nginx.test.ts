/**
 * The teams gateway scaled out: examples/nginx/nginx.conf in front of two
 * stateless `indusr mcp serve` replicas, each an OAuth resource server for
 * the proxy's URL (no state shared: each replica checks tokens itself).
 * indusr signs in through the proxy with client credentials and in a real
 * browser (headless Chromium), and calls through it in both eras; `/readyz`
 * and the protected resource metadata are reachable through the proxy too. nginx is a machine
 * tool, found on PATH (or in /usr/sbin): `.ci/run` installs it when absent.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import readline from "node:readline";
import { freePort, startNginxFront, waitFor } from "@indus/testkit";
import type { NginxFront } from "@indus/testkit";
import { loginThroughBrowser } from "./support/browser-login";
import { BIN, makeSandbox, runCli, type Sandbox } from "./support/run-cli";
import { stopChild } from "./support/relay-client";
import { writeConfig } from "./support/servers";

jest.setTimeout(300_000);

const REPO = path.join(__dirname, "..", "..", "..");
const TEAMS = path.join(REPO, "examples", "teams");

let sandbox: Sandbox;
let nginx: NginxFront | undefined;
let issuer: ChildProcess | undefined;
const replicas: ChildProcess[] = [];
const ports = { a: 0, b: 0, front: 0 };
let issuerUrl: string;

const front = (route = "/mcp") => new URL(`http://127.0.0.1:${ports.front}${route}`);

/** Waits for `url` to answer 200 (Jest's ceiling is the only deadline); a hang reports the replicas' logs. */
async function answering(url: URL | string, logs: () => string): Promise<void> {
  await waitFor(
    `${String(url)} answering 200`,
    async () => {
      if ((await fetch(url).catch(() => undefined))?.status === 200) return true;
      throw new Error(`not yet; replica logs:\n${logs()}`);
    },
    { every: 200 },
  );
}

beforeAll(async () => {
  sandbox = makeSandbox();
  for (const key of ["a", "b", "front"] as const) ports[key] = await freePort();
  issuer = spawn(process.execPath, [path.join(TEAMS, "issuer.mjs"), "--resource", front().href], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  issuerUrl = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: issuer!.stdout! }).once("line", (line) => {
      resolve((JSON.parse(line) as { issuer: string }).issuer);
    });
    issuer!.once("exit", (code) => reject(new Error(`issuer.mjs exited ${code}`)));
  });
  let logs = "";
  for (const [marker, port] of [
    ["a.", ports.a],
    ["b.", ports.b],
  ] as const) {
    const replica = spawn(
      process.execPath,
      [
        BIN,
        "mcp",
        "serve",
        "--http",
        "--stateless",
        "--port",
        String(port),
        "--session-prefix",
        marker,
        "--allowed-hosts",
        `127.0.0.1:${ports.front}`,
        "--no-builtins",
        "--mcp",
        path.join(TEAMS, "mcp.json"),
        "--auth-issuer",
        issuerUrl,
        "--auth-resource",
        front().href,
        "--auth-scope",
        "mcp:tools",
        "--access",
        path.join(TEAMS, "access.json"),
      ],
      {
        cwd: REPO,
        env: { ...sandbox.env, INDUS_TEAMS_STATE: path.join(sandbox.root, marker) },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    replica.stderr.on("data", (chunk: Buffer) => (logs += chunk.toString()));
    replicas.push(replica);
  }
  // Started once both replicas are ready: a failed proxied request marks a replica down for a while.
  for (const port of [ports.a, ports.b]) {
    await answering(`http://127.0.0.1:${port}/readyz`, () => logs);
  }
  nginx = await startNginxFront({
    prefix: path.join(sandbox.root, "nginx"),
    port: ports.front,
    replicas: [ports.a, ports.b],
    ready: "/readyz",
  });
});

afterAll(async () => {
  await nginx?.stop();
  for (const child of [...replicas, ...(issuer ? [issuer] : [])]) await stopChild(child);
  sandbox?.cleanup();
});

it("serves the protected resource metadata for the proxy's URL through the proxy", async () => {
  const unauthenticated = await fetch(front(), { method: "POST", body: "{}" });
  expect(unauthenticated.status).toBe(401);
  const challenge = unauthenticated.headers.get("www-authenticate") ?? "";
  expect(challenge).toContain(`resource_metadata="${front("/.well-known/oauth-protected-resource/mcp").href}"`);
  const metadata = (await (await fetch(front("/.well-known/oauth-protected-resource/mcp"))).json()) as {
    resource: string;
    authorization_servers: string[];
  };
  expect(metadata).toMatchObject({ resource: front().href, authorization_servers: [issuerUrl] });
});

it("lets indusr sign in with client credentials and call through the replicas, in both eras", async () => {
  const env = { XDG_STATE_HOME: path.join(sandbox.root, "state"), FULL_SECRET: "full-agent-secret" };
  const row = (protocol: string) => ({
    url: front().href,
    protocol,
    oauth: { grant: "client_credentials", clientId: "full-agent", clientSecretEnv: "FULL_SECRET" },
  });
  const config = writeConfig(sandbox.root, { modern: row("2026-07-28"), legacy: row("legacy") }, "cc.json");
  for (const server of ["modern", "legacy"]) {
    for (let i = 0; i < 2; i++) {
      const call = await runCli(
        ["call", `${server}__everything__echo`, `{"message":"via nginx ${i}"}`, "--mcp", config],
        {
          sandbox,
          env,
        },
      );
      expect(call.stdout).toContain(`Echo: via nginx ${i}`);
    }
  }
  const log = nginx!.accessLog().join("\n");
  // Round-robin: both replicas answered.
  expect(log).toContain(`upstream=127.0.0.1:${ports.a}`);
  expect(log).toContain(`upstream=127.0.0.1:${ports.b}`);
});

it("lets a person sign in in a browser and call through the replicas, in both eras", async () => {
  const env = { XDG_STATE_HOME: path.join(sandbox.root, "state") };
  const row = (protocol: string) => ({ url: front().href, protocol });
  const config = writeConfig(sandbox.root, { web: row("2026-07-28"), weblegacy: row("legacy") }, "web.json");
  for (const server of ["web", "weblegacy"]) {
    const login = await loginThroughBrowser(sandbox, server, config, env);
    expect(login.landed).toContain("indusr has your sign-in");
    expect(login.code).toBe(0);
    const call = await runCli(["call", `${server}__memory__read_graph`, "{}", "--mcp", config], { sandbox, env });
    expect(call.code).toBe(0);
    expect(call.stdout).toContain("entities");
  }
});
