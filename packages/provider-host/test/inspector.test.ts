import { join } from "node:path";
import { serveHttp } from "@indus/provider-host";
import type { HttpProviderHost } from "@indus/provider-host";
import { createDemoBox } from "./fixtures/demo-box.mjs";
import { PACKAGE_DIR, STDIO_HOST } from "./support/processes";
import { run } from "./support/run";

// @modelcontextprotocol/inspector-cli as an outside client. Its CLI looks for
// its own package.json at a path relative to the working directory, so it is
// run from a folder whose parent holds a package.json (test/).
const INSPECTOR = require.resolve("@modelcontextprotocol/inspector-cli", { paths: [PACKAGE_DIR] });
const CWD = join(PACKAGE_DIR, "test");

jest.setTimeout(120_000);

async function inspect(args: string[]): Promise<unknown> {
  const result = await run(process.execPath, [INSPECTOR, "--cli", ...args], { cwd: CWD, timeoutMs: 90_000 });
  if (result.code !== 0) throw new Error(`inspector failed (${result.code}): ${result.stdout}\n${result.stderr}`);
  return JSON.parse(result.stdout);
}

describe("inspector-cli over stdio", () => {
  it("lists the tools", async () => {
    const listed = (await inspect([process.execPath, STDIO_HOST, "--method", "tools/list"])) as {
      tools: Array<{ name: string; annotations?: object }>;
    };
    expect(listed.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["echo", "add", "slow"]));
    expect(listed.tools.find((tool) => tool.name === "echo")?.annotations).toMatchObject({ readOnlyHint: true });
  });

  it("calls a tool with arguments", async () => {
    const called = await inspect([
      process.execPath,
      STDIO_HOST,
      "--method",
      "tools/call",
      "--tool-name",
      "echo",
      "--tool-arg",
      "message=from the inspector",
    ]);
    expect(called).toEqual({ content: [{ type: "text", text: "Echo: from the inspector" }], isError: false });
  });
});

describe("inspector-cli over Streamable HTTP", () => {
  let host: HttpProviderHost;

  beforeAll(async () => {
    host = await serveHttp(createDemoBox().box, { env: { INDUS_PROVIDER_HOST_TOKEN: "inspector-token" } });
  });
  afterAll(async () => {
    await host.close({ graceMs: 0 });
  });

  const auth = ["--header", "Authorization: Bearer inspector-token"];

  it("lists the tools", async () => {
    const listed = (await inspect([host.url.href, "--transport", "http", ...auth, "--method", "tools/list"])) as {
      tools: Array<{ name: string }>;
    };
    expect(listed.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["echo", "add", "slow"]));
  });

  it("calls a tool with typed arguments", async () => {
    const called = await inspect([
      host.url.href,
      "--transport",
      "http",
      ...auth,
      "--method",
      "tools/call",
      "--tool-name",
      "add",
      "--tool-arg",
      "a=2",
      "b=40",
    ]);
    expect(called).toEqual({ content: [{ type: "text", text: "42" }], structuredContent: { sum: 42 }, isError: false });
  });

  it("is turned away without the token", async () => {
    const result = await run(
      process.execPath,
      [INSPECTOR, "--cli", host.url.href, "--transport", "http", "--method", "tools/list"],
      { cwd: CWD, timeoutMs: 90_000 },
    );
    expect(result.code).not.toBe(0);
  });
});
