/**
 * `indusr mcp login / logout` and signed-in sessions, end to end: the built
 * CLI as a subprocess against a real authorization server (oidc-provider) in
 * front of a real MCP server on loopback. The browser is an HTTP client that
 * follows the printed sign-in URL to the CLI's loopback listener.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { stdioServer } from "@indus/contract";
import { createServerEndpoint } from "@indus/endpoint";
import { UNHURRIED_DEADLINES, browse, startOAuthFixture, type OAuthFixture } from "@indus/testkit";
import { tracked } from "./support/children";
import { BIN, makeSandbox, runCli, type Sandbox } from "./support/run-cli";
import { writeConfig } from "./support/servers";

// Several CLI processes, each signing in or refreshing against an authorization server: minutes beside a CPU hog.
jest.setTimeout(300_000);

let fixture: OAuthFixture;
let sandbox: Sandbox;
let config: string;
let env: NodeJS.ProcessEnv;
let tokenFile: string;

beforeAll(async () => {
  // Tokens outlive the test: expiry is simulated on the stored record, never waited for.
  fixture = await startOAuthFixture({ tokenTtlSeconds: 3600 });
});
afterAll(() => fixture.close());
beforeEach(() => {
  sandbox = makeSandbox();
  config = writeConfig(sandbox.root, { guarded: { url: fixture.mcpUrl } });
  env = { XDG_STATE_HOME: path.join(sandbox.root, "state") };
  tokenFile = path.join(sandbox.root, "state", "indusr", "auth", "guarded.json");
});
afterEach(() => sandbox.cleanup());

/**
 * `indusr mcp login guarded --no-browser`, with the browser step done by
 * following the printed URL to the loopback listener, or (`paste`) by typing
 * the URL the browser ended on into the terminal, as from a remote shell.
 */
async function login(how: "loopback" | "paste" = "loopback"): Promise<{ code: number | null; stderr: string }> {
  const child = tracked(
    spawn(process.execPath, [BIN, "mcp", "login", "guarded", "--no-browser", "--mcp", config], {
      cwd: sandbox.cwd,
      env: { ...sandbox.env, ...env },
      stdio: ["pipe", "pipe", "pipe"],
    }),
  );
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.once("close", resolve));
  const { url, redirect } = await new Promise<{ url: string; redirect: string }>((resolve, reject) => {
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const url = /^\s+(http:\/\/127\.0\.0\.1:\d+\/\S+)$/m.exec(stderr)?.[1];
      const redirect = /Waiting for the redirect to (\S+) /.exec(stderr)?.[1];
      if (url && redirect) resolve({ url, redirect });
    });
    child.once("close", () => reject(new Error(`login exited before printing a URL: ${stderr}`)));
  });
  const landed = await browse(new URL(url), redirect, how === "loopback");
  if (how === "paste") child.stdin.write(`not a url\n${landed.href}\n`);
  const code = await exited;
  return { code, stderr };
}

/** Marks the stored access token as expired, as if its lifetime had passed. */
function expireStoredToken(): void {
  const record = JSON.parse(fs.readFileSync(tokenFile, "utf8")) as Record<string, unknown>;
  fs.writeFileSync(tokenFile, JSON.stringify({ ...record, expiresAt: 0 }), { mode: 0o600 });
}

function storedTokens(): { access_token: string; refresh_token: string } {
  return (JSON.parse(fs.readFileSync(tokenFile, "utf8")) as { tokens: { access_token: string; refresh_token: string } })
    .tokens;
}

it("signs in through the browser step, stores the tokens 0600, refreshes on expiry, and logs out", async () => {
  const before = await runCli(["mcp", "status", "--json", "--mcp", config], { sandbox, env });
  expect(before.code).toBe(0);
  expect(JSON.parse(before.stdout)).toEqual([
    expect.objectContaining({
      phase: "needs-login",
      signIn: 'server "guarded" needs a sign-in: no sign-in is stored; sign in with `indusr mcp login guarded`',
    }),
  ]);

  const signed = await login();
  expect(signed.stderr).toContain('Signed in to "guarded" (oauth-protected): 1 tools.');
  expect(signed.code).toBe(0);
  expect(fs.statSync(tokenFile).mode & 0o777).toBe(0o600);
  expect(fs.statSync(path.dirname(tokenFile)).mode & 0o777).toBe(0o700);
  const first = storedTokens();

  // Nothing a user can print shows the token.
  for (const args of [
    ["mcp", "get", "guarded", "--json"],
    ["mcp", "show-merged"],
    ["mcp", "status", "--json"],
  ]) {
    const shown = await runCli([...args, "--mcp", config], { sandbox, env });
    expect(shown.stdout + shown.stderr).not.toContain(first.access_token);
    expect(shown.stdout + shown.stderr).not.toContain(first.refresh_token);
  }

  // A stored token past its expiry is refreshed by the next run first, with no user step. The record's
  // expiry is moved into the past instead of waiting on a clock (the server still takes the old token).
  const stats = await fixture.stats();
  expireStoredToken();
  const call = await runCli(["call", "guarded__whoami", "--mcp", config], { sandbox, env });
  expect(call).toMatchObject({ code: 0, stdout: "signed in as test-user\n" });
  const after = await fixture.stats();
  expect(after.grants.refresh_token ?? 0).toBe((stats.grants.refresh_token ?? 0) + 1);
  expect(after.unauthorized).toBe(stats.unauthorized);
  expect(storedTokens().access_token).not.toBe(first.access_token);
  expect(fs.statSync(tokenFile).mode & 0o777).toBe(0o600);

  const logout = await runCli(["mcp", "logout", "guarded"], { sandbox, env });
  expect(logout.stderr).toContain('Signed out of "guarded"');
  expect(fs.existsSync(tokenFile)).toBe(false);
  const table = await runCli(["mcp", "status", "--mcp", config], { sandbox, env });
  expect(table.code).toBe(0);
  expect(table.stdout).toMatch(/guarded\s+needs-login\s+\S+\s+0\s/);
  expect(table.stdout).toContain("sign in with `indusr mcp login guarded`");
});

it("a token revoked mid-session is refreshed on the 401 and the call retried once", async () => {
  const pasted = await login("paste");
  expect(pasted.stderr).toContain("That is not the redirect URL");
  expect(pasted.code).toBe(0);
  const gateway = createServerEndpoint({
    ...stdioServer("gw", process.execPath, [BIN, "mcp", "serve", "--stdio", "--profile", "survey", "--mcp", config], {
      ...sandbox.env,
      ...env,
    } as Record<string, string>),
    // Past the gateway's boot wait (INDUSR_BOOT_WAIT_MS) and the test's ceiling.
    ...UNHURRIED_DEADLINES,
  });
  try {
    await gateway.open();
    expect((await gateway.invoke("guarded__whoami", {})).content).toEqual([
      { type: "text", text: "signed in as test-user" },
    ]);
    const before = await fixture.stats();
    await fixture.rejectSeenTokens();
    const again = await gateway.invoke("guarded__whoami", {});
    expect(again.content).toEqual([{ type: "text", text: "signed in as test-user" }]);
    const after = await fixture.stats();
    expect(after.unauthorized).toBe(before.unauthorized + 1);
    expect(after.grants.refresh_token ?? 0).toBe((before.grants.refresh_token ?? 0) + 1);
    expect(after.toolCalls).toBe(before.toolCalls + 1);
  } finally {
    await gateway.close();
  }
});

it("with oauth.dpop the sign-in's key is kept in the auth file, so the next process can prove possession", async () => {
  config = writeConfig(sandbox.root, { guarded: { url: fixture.mcpUrl, oauth: { dpop: true } } });
  const signed = await login();
  expect(signed.code).toBe(0);
  const record = JSON.parse(fs.readFileSync(tokenFile, "utf8")) as {
    tokens: { token_type: string };
    dpopKey: { alg: string };
  };
  expect(record.tokens.token_type).toBe("DPoP");
  expect(record.dpopKey.alg).toBe("ES256");
  expect(fs.statSync(tokenFile).mode & 0o777).toBe(0o600);
  const before = await fixture.stats();
  // Another process: the bound token is accepted only with proofs signed by the stored key.
  const call = await runCli(["call", "guarded__whoami", "--mcp", config], { sandbox, env });
  expect(call).toMatchObject({ code: 0, stdout: "signed in as test-user\n" });
  const after = await fixture.stats();
  expect(after.dpopProofs).toBeGreaterThan(before.dpopProofs);
  expect(after.unauthorized).toBe(before.unauthorized);
});
