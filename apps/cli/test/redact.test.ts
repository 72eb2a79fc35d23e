import { redactArgs, redactEnvValue, redactText, redactUrl } from "../src/redact";

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
