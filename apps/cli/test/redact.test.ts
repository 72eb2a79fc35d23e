import path from "node:path";
import { redactArgs, redactEnvValue, redactText, redactUrl } from "../src/redact";
import { makeSandbox, runCli, type Sandbox } from "./support/run-cli";
import { writeConfig } from "./support/servers";

describe("redaction of credentials inside values", () => {
  it.each([
    ["DATABASE_URL", "postgres://admin:Sup3rS3cret@db.internal/prod", "postgres://***:***@db.internal/prod"],
    ["MIXED", "host=db user=admin password=hunter2 sslmode=require", "host=db user=admin password=*** sslmode=require"],
    ["OPTS", "--api-key=abcd1234 --verbose", "--api-key=*** --verbose"],
    ["CALLBACK", "https://hooks.example/x?token=abc123&x=1", "https://hooks.example/x?token=***&x=1"],
    ["GIT", "https://ghp_abcdefghijklmnop1234@github.com/o/r", "https://***@github.com/o/r"],
    ["PLAIN", "/usr/local/bin", "/usr/local/bin"],
    ["REF", "${DB_URL}", "${DB_URL}"],
  ])("env %s", (key, value, shown) => {
    expect(redactEnvValue(key, value)).toBe(shown);
  });

  it("hides the value after a secret-named flag, and credentials inside args", () => {
    expect(
      redactArgs([
        "server.js",
        "--token",
        "abc",
        "--db",
        "mysql://root:pw@localhost/x",
        "KEY_SECRET=s3",
        "--port",
        "80",
      ]),
    ).toEqual(["server.js", "--token", "***", "--db", "mysql://***:***@localhost/x", "KEY_SECRET=***", "--port", "80"]);
  });

  it("keeps ${VAR} references and ordinary text", () => {
    expect(redactText("password=${PG_PASSWORD} at localhost")).toBe("password=${PG_PASSWORD} at localhost");
    expect(redactText("nothing to see")).toBe("nothing to see");
  });

  it("hides URL user-info", () => {
    expect(redactUrl("https://user:pw@host/mcp")).toBe("https://***:***@host/mcp");
  });
});

describe("mcp get / show-merged / list print no credentials inside values", () => {
  let sandbox: Sandbox;
  beforeEach(() => {
    sandbox = makeSandbox();
  });
  afterEach(() => sandbox.cleanup());

  it("hides a password inside DATABASE_URL, a key=value secret and a flag's value", async () => {
    writeConfig(path.join(sandbox.cwd, ".indusvx"), {
      db: {
        command: "node",
        args: ["db-server.js", "--password", "Sup3rS3cret", "--dsn=postgres://admin:Sup3rS3cret@db.internal/prod"],
        env: {
          DATABASE_URL: "postgres://admin:Sup3rS3cret@db.internal/prod",
          PGOPTS: "sslmode=require password=Sup3rS3cret",
        },
      },
    });
    for (const args of [
      ["mcp", "get", "db"],
      ["mcp", "get", "db", "--json"],
      ["mcp", "show-merged", "--json"],
      ["mcp", "list"],
    ]) {
      const result = await runCli(args, { sandbox });
      expect(result.code).toBe(0);
      expect(result.stdout).not.toContain("Sup3rS3cret");
    }
    const get = await runCli(["mcp", "get", "db"], { sandbox });
    expect(get.stdout).toContain("postgres://***:***@db.internal/prod");
  });
});
