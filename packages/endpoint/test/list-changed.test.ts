import { createServerEndpoint, type McpServerEndpoint, type ToolsChange, type CatalogChange } from "@indus/endpoint";
import { scripted } from "./helpers/servers";
import { waitFor } from "./helpers/processes";

let endpoint: McpServerEndpoint;
const changes: ToolsChange[] = [];
const catalog: CatalogChange[] = [];

beforeAll(async () => {
  endpoint = createServerEndpoint(scripted("live", ["page=2"]));
  endpoint.onToolsChanged((change) => changes.push(change));
  endpoint.onCatalogChanged((change) => catalog.push(change));
  await endpoint.open();
  await endpoint.listTools();
});
afterAll(() => endpoint.close());

async function nextChange(count: number): Promise<ToolsChange> {
  await waitFor(`tools change ${count} reported`, () => changes.length >= count);
  return changes[count - 1]!;
}

it("refreshes every page on tools/list_changed and reports added tools", async () => {
  const before = (await endpoint.listTools()).length;
  await endpoint.invoke("grow", {});
  const change = await nextChange(1);
  expect(change.added.map((tool) => tool.ref.name)).toEqual(["grown_1"]);
  expect(change.added[0]!.descriptor.name).toBe("live__grown_1");
  expect(change.changed).toEqual([]);
  expect(change.removed).toEqual([]);
  expect(change.tools).toHaveLength(before + 1);
  expect(await endpoint.listTools()).toHaveLength(before + 1);
  expect(endpoint.status().toolCount).toBe(before + 1);
});

it("reports changed descriptors", async () => {
  await endpoint.invoke("retitle", {});
  const change = await nextChange(2);
  expect(change.changed.map((tool) => tool.ref.name)).toEqual(["echo"]);
  expect(change.changed[0]!.descriptor.description).toContain("retitled");
});

it("reports removed tools as they were", async () => {
  await endpoint.invoke("grow", {});
  await nextChange(3);
  await endpoint.invoke("shrink", {});
  const change = await nextChange(4);
  expect(change.removed.map((tool) => tool.ref.name).sort()).toEqual(["grown_1", "grown_2"]);
  expect((await endpoint.listTools()).some((tool) => tool.ref.name.startsWith("grown_"))).toBe(false);
});

it("tells catalog subscribers about resource and prompt list changes", async () => {
  await endpoint.invoke("touch_catalog", {});
  await waitFor(
    "resources and prompts changes reported",
    () => catalog.includes("resources") && catalog.includes("prompts"),
  );
});

it("unsubscribes", async () => {
  const seen: ToolsChange[] = [];
  const off = endpoint.onToolsChanged((change) => seen.push(change));
  off();
  await endpoint.invoke("grow", {});
  await nextChange(5);
  expect(seen).toEqual([]);
});
