import type {
  ClientHostHooks,
  JsonObject,
  McpFleet,
  MountServers,
  RunOptions,
  ToolBox,
  ToolDescriptor,
} from "@indus/contract";
import { stdioServer } from "@indus/contract";
import { attachBridgeCapabilities, deckContext, emptyBridgeLedger, provisionDeck } from "@indus/deck";
import { tempDir } from "./helpers";

// A gateway publishes the deck's box: a grafted MCP tool must keep its wire
// form, and a call must reach the mounted runner with the client it runs for
// (relayTo) and come back with the server's result as sent (wire).

const wireTool: JsonObject = {
  name: "shot",
  title: "Shot",
  inputSchema: { type: "object", $defs: { a: { type: "string" } } },
  outputSchema: { type: "object" },
  annotations: { readOnlyHint: true },
  _meta: { ui: "x" },
};
const wireResult: JsonObject = { content: [{ type: "audio", data: "AA==", mimeType: "audio/wav" }], _meta: { t: 1 } };

function recordingMount(seen: RunOptions[]): MountServers {
  return (servers) => {
    const descriptor: ToolDescriptor = { name: "s__shot", description: "d", parameters: {}, wire: wireTool };
    const box: ToolBox = {
      descriptors: () => [descriptor],
      runner: {
        run: (call, options = {}) => {
          seen.push(options);
          return Promise.resolve({ callId: call.id, content: [], isError: false, wire: wireResult });
        },
      },
    };
    const fleet = {
      status: () => new Map(servers.map((s) => [s.id, { server: s.id, phase: "ready", toolCount: 1 }])),
      endpoint: () => undefined,
      endpoints: () => [],
      reconnect: () => Promise.resolve(undefined),
      spinUp: () => Promise.resolve(),
      tearDown: () => Promise.resolve(),
    } as unknown as McpFleet;
    return { box, fleet, settled: Promise.resolve() };
  };
}

it("keeps a grafted tool's wire form and passes the call's relayTo and the server's wire result through", async () => {
  const seen: RunOptions[] = [];
  const attached = await attachBridgeCapabilities(emptyBridgeLedger(), [stdioServer("s", "x")], {
    mount: recordingMount(seen),
  });
  const box = provisionDeck("authoring", deckContext(tempDir())).graft(attached.live!).intoToolBox();
  expect(box.descriptors().find((d) => d.name === "s__shot")?.wire).toEqual(wireTool);
  // The model reads whose tool it is; the gateway republishes the server's own text (wire).
  expect(box.descriptors().find((d) => d.name === "s__shot")?.description).toBe("[s] d");
  // Built-ins have no wire form.
  expect(box.descriptors().find((d) => d.name !== "s__shot")).not.toHaveProperty("wire");

  const relayTo: ClientHostHooks = { listRoots: () => Promise.resolve([]) };
  const outcome = await box.runner.run({ id: "1", name: "s__shot", input: {} }, { relayTo });
  expect(seen[0]?.relayTo).toBe(relayTo);
  expect(outcome.wire).toEqual(wireResult);
  await box.runner.run({ id: "2", name: "s__shot", input: {} });
  expect(seen[1]).not.toHaveProperty("relayTo");
});
