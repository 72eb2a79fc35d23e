import type { StdioServerConfig } from "@indus/contract";
import { createServerEndpoint } from "@indus/endpoint";
import { everythingStdio } from "./helpers/servers";
import { isAlive, waitFor } from "./helpers/processes";

jest.setTimeout(60_000);

it("talks to @modelcontextprotocol/server-everything over stdio", async () => {
  const endpoint = createServerEndpoint(everythingStdio());
  try {
    await endpoint.open();
    expect(endpoint.serverInfo?.name).toBe("mcp-servers/everything");
    expect(endpoint.instructions).toBeTruthy();
    const tools = await endpoint.listTools();
    const echo = tools.find((tool) => tool.ref.name === "echo")!;
    expect(echo.descriptor).toMatchObject({
      name: "everything__echo",
      parameters: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
    });
    await expect(endpoint.invoke("echo", { message: "hello" })).resolves.toMatchObject({
      content: [{ type: "text", text: "Echo: hello" }],
      isError: false,
    });
    const sum = await endpoint.invoke("get-sum", { a: 2, b: 40 });
    expect(JSON.stringify(sum.content)).toContain("42");
    const image = await endpoint.invoke("get-tiny-image", {});
    expect(image.content.some((block) => (block as { type: string }).type === "image")).toBe(true);

    expect((await endpoint.listResources()).length).toBeGreaterThan(0);
    expect((await endpoint.listResourceTemplates()).length).toBeGreaterThan(0);
    const prompts = await endpoint.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toContain("simple-prompt");
    const prompt = await endpoint.getPrompt("simple-prompt", {});
    expect(Array.isArray(prompt.messages)).toBe(true);
  } finally {
    const pid = endpoint.pid;
    await endpoint.close();
    if (pid !== undefined) await waitFor("the server process gone", () => !isAlive(pid));
  }
});

/** The environment server-everything reports through its get-env tool. */
async function serverSees(extra: Partial<StdioServerConfig>): Promise<string> {
  const endpoint = createServerEndpoint(everythingStdio("env", { env: { INDUS_FOR_SERVER: "yes" }, ...extra }));
  try {
    await endpoint.open();
    return JSON.stringify((await endpoint.invoke("get-env", {})).content);
  } finally {
    await endpoint.close();
  }
}

describe("a stdio server's environment", () => {
  beforeEach(() => {
    process.env.INDUS_SHELL_TOKEN = "exported-in-the-shell";
    process.env.INDUS_ALLOWED = "named-in-env-vars";
  });
  afterEach(() => {
    delete process.env.INDUS_SHELL_TOKEN;
    delete process.env.INDUS_ALLOWED;
  });

  it("is the user's whole environment plus its config's env by default, as Claude Code's are", async () => {
    const text = await serverSees({});
    expect(text).toContain("INDUS_FOR_SERVER");
    expect(text).toContain("PATH");
    expect(text).toContain("exported-in-the-shell");
    expect(text).toContain("named-in-env-vars");
  });

  it("is the safe subset plus its config's env with inheritEnv: false", async () => {
    const text = await serverSees({ inheritEnv: false });
    expect(text).toContain("INDUS_FOR_SERVER");
    expect(text).toContain("PATH");
    expect(text).not.toContain("INDUS_SHELL_TOKEN");
    expect(text).not.toContain("INDUS_ALLOWED");
    expect(text).not.toContain("NODE_EXTRA_CA_CERTS");
  });

  it("is the safe subset plus the names an env_vars allow-list gives", async () => {
    const text = await serverSees({ envVars: ["INDUS_ALLOWED"] });
    expect(text).toContain("named-in-env-vars");
    expect(text).toContain("PATH");
    expect(text).not.toContain("INDUS_SHELL_TOKEN");
  });
});
