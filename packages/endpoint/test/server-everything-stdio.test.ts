import { createServerEndpoint } from "@indus/endpoint";
import { everythingStdio } from "./helpers/servers";
import { eventually, isAlive } from "./helpers/processes";

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
    if (pid !== undefined) expect(await eventually(() => !isAlive(pid))).toBe(true);
  }
});

it("gives a server the safe inherited environment plus its config's env, and nothing else", async () => {
  process.env.INDUS_HOST_SECRET = "do-not-leak";
  const endpoint = createServerEndpoint(everythingStdio("env", { env: { INDUS_FOR_SERVER: "yes" } }));
  try {
    await endpoint.open();
    const result = await endpoint.invoke("get-env", {});
    const text = JSON.stringify(result.content);
    expect(text).toContain("INDUS_FOR_SERVER");
    expect(text).toContain("PATH");
    expect(text).not.toContain("INDUS_HOST_SECRET");
    expect(text).not.toContain("NODE_EXTRA_CA_CERTS");
  } finally {
    delete process.env.INDUS_HOST_SECRET;
    await endpoint.close();
  }
});
