/** The README's example, with the locally installed server instead of `npx`. */
import { stdioServer } from "@indus/contract";
import { createServerEndpoint } from "@indus/endpoint";
import { npmServerEntry } from "./helpers/servers";

jest.setTimeout(60_000);

it("runs the README example", async () => {
  const endpoint = createServerEndpoint(
    stdioServer("everything", process.execPath, [npmServerEntry("server-everything")]),
  );
  await endpoint.open();
  const names = (await endpoint.listTools()).map((tool) => `${tool.descriptor.name} → ${tool.ref.name}`);
  expect(names).toContain("everything__echo → echo");
  const result = await endpoint.invoke("echo", { message: "hi" }, { timeoutMs: 10_000 });
  expect(result.content).toEqual([{ type: "text", text: "Echo: hi" }]);
  expect(endpoint.instructions).toBeTruthy();
  expect(Array.isArray(endpoint.stderrTail(5))).toBe(true);
  await endpoint.close();
  expect(endpoint.phase).toBe("closed");
});
