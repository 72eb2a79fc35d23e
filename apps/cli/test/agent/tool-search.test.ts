/**
 * Deferred MCP tools and `saas-action` over MCP, as a user runs them: the
 * built binary, real stdio servers, and the scripted model server seeing
 * exactly which tools each request declares.
 */
import { callTool, lastToolResults, say } from "./fake-model/fake-model-server";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { events, everythingServer, runAgent, tinyServer } from "./support/agent-cli";
import { openAiModelArgs, useAgentTest } from "./support/agent-test";

jest.setTimeout(120_000);

const t = useAgentTest();
const modelArgs = openAiModelArgs;

test('saas-action discover with query "echo" returns everything__echo, and execute runs it under the same --allow', async () => {
  const fake = await t.model([
    callTool("saas-action", { action: "discover", query: "echo" }),
    callTool("saas-action", { action: "execute", slug: "everything__echo", params: { message: "found you" } }),
    (request) => say(`Done: ${lastToolResults(request)[0]?.text}`),
  ]);
  const mcp = t.sandbox.mcpConfig({ everything: everythingServer });
  const r = await runAgent(
    [
      "-p",
      "find an echo tool",
      "--mcp",
      mcp,
      "--allow",
      "everything__*",
      "--output-format",
      "stream-json",
      ...modelArgs(fake),
    ],
    t.sandbox,
  );
  expect(r.code).toBe(0);
  const discovered = JSON.parse(lastToolResults(fake.requests[1]!)[0]!.text) as {
    matches: { name: string; description: string; inputSchema: unknown }[];
  };
  expect(discovered.matches[0]).toMatchObject({ name: "everything__echo", inputSchema: expect.any(Object) });
  expect(discovered.matches[0]!.description).toMatch(/echo/i);
  expect(lastToolResults(fake.requests[2]!)[0]!.text).toBe("Echo: found you");
  expect(events(r.stdout).at(-1)).toMatchObject({
    type: "result",
    subtype: "success",
    result: "Done: Echo: found you",
  });
});

test("with 20 servers over a small budget the model is sent only built-ins plus saas-action, and a deferred tool still runs", async () => {
  const fake = await t.model([
    callTool("saas-action", { action: "discover", query: "ping", vendor: "s17" }),
    callTool("saas-action", { action: "execute", slug: "s17__ping", params: {} }),
    (request) => say(`Got ${lastToolResults(request)[0]?.text}`),
  ]);
  const servers = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`s${i}`, tinyServer(`s${i}`)]));
  const mcp = t.sandbox.mcpConfig(servers);
  const r = await runAgent(
    ["-p", "ping s17", "--mcp", mcp, "--mcp-tool-budget", "500", "--allow", "s17__*", ...modelArgs(fake)],
    t.sandbox,
  );
  expect(r.stderr).not.toMatch(/warning/);
  expect(r.code).toBe(0);
  const first = fake.requests[0]!;
  const names = first.tools.map((t) => t.name);
  expect(names).toContain("saas-action");
  expect(names.filter((n) => n.includes("__"))).toEqual([]);
  expect(first.system).toContain("# Deferred MCP servers");
  expect(first.system).toMatch(/- s17 \(3 tools\)/);
  expect(JSON.parse(lastToolResults(fake.requests[1]!)[0]!.text)).toMatchObject({
    matches: [expect.objectContaining({ name: "s17__ping" })],
  });
  expect(r.stdout).toBe("Got pong from s17\n");
});

test('a server marked "defer": true is deferred whatever the budget; with no servers saas-action is not offered and `tools` says why', async () => {
  const mcp = t.sandbox.mcpConfig({ everything: { ...everythingServer, defer: true }, s1: tinyServer("s1") });
  const listed = await runAgent(["tools", "--mcp", mcp], t.sandbox);
  expect(listed.code).toBe(0);
  expect(listed.stdout).toMatch(/^s1__ping /m);
  // Listed, marked deferred: out of the model's list, but `call` runs it.
  expect(listed.stdout).toMatch(/^everything__echo\s+deferred\s/m);
  expect(listed.stdout).toMatch(
    /deferred MCP servers, reached through saas-action discover\/execute: everything \("defer": true\)/,
  );

  const none = await runAgent(["tools"], t.sandbox);
  expect(none.stdout).not.toMatch(/^saas-action /m);
  expect(none.stdout).toMatch(/not offered: saas-action: no MCP server is configured/);
  expect(none.stdout).toMatch(/^websearch: answers once you set BRAVE_API_KEY or TAVILY_API_KEY/m);
  const brave = await runAgent(["tools"], t.sandbox, { BRAVE_API_KEY: "k" });
  expect(brave.stdout).toMatch(/^websearch: brave \(from BRAVE_API_KEY\)$/m);
});

test("with COMPOSIO_API_KEY, discover and execute reach Composio's actions through its REST API (a local fake)", async () => {
  const seen: { url: string; key: unknown; body: string }[] = [];
  const composio = http.createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      seen.push({ url: req.url ?? "", key: req.headers["x-api-key"], body });
      res.setHeader("content-type", "application/json");
      if (req.url?.startsWith("/api/v3/tools?"))
        res.end(
          JSON.stringify({
            items: [
              {
                slug: "GITHUB_CREATE_ISSUE",
                description: "Create an issue in a GitHub repository",
                toolkit: { slug: "github" },
                input_parameters: { type: "object", properties: { title: { type: "string" } } },
              },
            ],
          }),
        );
      else if (req.url === "/api/v3/tools/execute/GITHUB_CREATE_ISSUE")
        res.end(JSON.stringify({ successful: true, data: { number: 42 } }));
      else res.writeHead(404).end("{}");
    });
  });
  await new Promise<void>((resolve) => composio.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(composio.address() as AddressInfo).port}`;
  try {
    const fake = await t.model([
      callTool("saas-action", { action: "discover", query: "create issue", vendor: "github" }),
      callTool("saas-action", { action: "execute", slug: "GITHUB_CREATE_ISSUE", params: { title: "t" } }),
      (request) => say(`Done: ${lastToolResults(request)[0]?.text}`),
    ]);
    const r = await runAgent(["-p", "file an issue", "--allow", "GITHUB_CREATE_ISSUE", ...modelArgs(fake)], t.sandbox, {
      COMPOSIO_API_KEY: "ck",
      INDUS_COMPOSIO_URL: url,
    });
    expect(r.code).toBe(0);
    expect(fake.requests[0]!.tools.map((t) => t.name)).toContain("saas-action");
    expect(JSON.parse(lastToolResults(fake.requests[1]!)[0]!.text)).toMatchObject({
      matches: [{ name: "GITHUB_CREATE_ISSUE", server: "composio:github" }],
    });
    expect(seen[0]).toMatchObject({ key: "ck" });
    expect(seen[0]!.url).toMatch(/search=create\+issue/);
    expect(JSON.parse(seen[1]!.body)).toEqual({ arguments: { title: "t" } });
    expect(r.stdout).toMatch(/^Done: \{\s*"number":\s*42\s*\}/);
  } finally {
    await new Promise<void>((resolve) => composio.close(() => resolve()));
  }
});
