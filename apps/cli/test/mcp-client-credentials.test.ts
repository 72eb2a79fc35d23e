/**
 * A remote server configured with the client_credentials grant, end to end:
 * the built CLI as a subprocess against a real authorization server
 * (oidc-provider) and MCP server on loopback. No browser and no stored
 * sign-in: the secret comes from the environment when the server connects,
 * `mcp login` only checks it, and a missing one is a failure naming the
 * variable (never `needs-login`).
 */
import fs from "node:fs";
import path from "node:path";
import { FIXTURE_CLIENT_SECRET, startOAuthFixture, type OAuthFixture } from "@indus/testkit";
import { makeSandbox, runCli, type Sandbox } from "./support/run-cli";
import { writeConfig } from "./support/servers";

// Several CLI processes, each getting a token from an authorization server: minutes beside a CPU hog.
jest.setTimeout(300_000);

let fixture: OAuthFixture;
let sandbox: Sandbox;
let config: string;
const state = () => path.join(sandbox.root, "state");

beforeAll(async () => {
  fixture = await startOAuthFixture();
});
afterAll(() => fixture.close());
beforeEach(() => {
  sandbox = makeSandbox();
  config = writeConfig(sandbox.root, {
    ci: {
      url: fixture.mcpUrl,
      oauth: { grant: "client_credentials", clientId: "ci-basic", clientSecretEnv: "CI_BOT_SECRET" },
    },
  });
});
afterEach(() => sandbox.cleanup());

it("status and calls get a token from the environment's secret; login checks it without a browser or a file", async () => {
  const env = { XDG_STATE_HOME: state(), CI_BOT_SECRET: FIXTURE_CLIENT_SECRET };
  const status = await runCli(["mcp", "status", "--json", "--mcp", config], { sandbox, env });
  expect(status.code).toBe(0);
  expect(JSON.parse(status.stdout)).toEqual([expect.objectContaining({ name: "ci", phase: "ready", tools: 1 })]);

  const call = await runCli(["call", "ci__whoami", "--mcp", config], { sandbox, env });
  expect(call.stdout).toContain("signed in as ci-basic");

  const login = await runCli(["mcp", "login", "ci", "--no-browser", "--mcp", config], { sandbox, env });
  expect(login.code).toBe(0);
  expect(login.stderr).toContain(
    '"ci" signs in with the client_credentials grant (client_secret_basic): no browser, nothing stored.',
  );
  expect(login.stderr).toContain('Got an access token for "ci": 1 tools.');
  expect(fs.existsSync(path.join(state(), "indusr", "auth", "ci.json"))).toBe(false);

  const doctor = await runCli(["doctor", "--json", "--mcp", config], { sandbox, env });
  expect((JSON.parse(doctor.stdout) as { servers: unknown[] }).servers).toEqual([
    expect.objectContaining({ name: "ci", phase: "ready", auth: "OAuth client credentials" }),
  ]);
});

it("a missing secret variable fails the server, naming the variable and the server, not needs-login", async () => {
  const env = { XDG_STATE_HOME: state() };
  const status = await runCli(["mcp", "status", "--json", "--mcp", config], { sandbox, env });
  expect(status.code).toBe(1);
  const [row] = JSON.parse(status.stdout) as { phase: string; fault: { kind: string; message: string } }[];
  expect(row!.phase).toBe("faulted");
  expect(row!.fault).toEqual({
    kind: "unauthorized",
    message:
      'server "ci" could not get an access token with its client credentials: environment variable CI_BOT_SECRET (oauth.clientSecretEnv) is not set',
  });

  const login = await runCli(["mcp", "login", "ci", "--mcp", config], { sandbox, env });
  expect(login.code).toBe(1);
  expect(login.stderr).toContain("environment variable CI_BOT_SECRET (oauth.clientSecretEnv) is not set");
});
