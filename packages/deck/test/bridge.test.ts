import type {
  EndpointPhase,
  EndpointStatus,
  McpEndpoint,
  McpFleet,
  MountServers,
  ServerConfig,
  ToolBox,
  ToolDescriptor,
} from "@indus/contract";
import { stdioServer } from "@indus/contract";
import {
  attachBridgeCapabilities,
  bridgeStatus,
  bridgeToolCounts,
  bridgeToolNames,
  deckContext,
  detachBridge,
  emptyBridgeLedger,
  loadMcpCapabilities,
  provisionDeck,
  resultText,
} from "@indus/deck";
import { tempDir } from "./helpers";

// The deck mounts servers only through the host's port; here the port is a
// hand-made stand-in, so these tests are about the deck's bookkeeping. The
// same paths against real servers, through `fleetMount`, are in
// apps/cli/test/deck-mount.test.ts, where the CLI wires the fleet.

/** A mount whose servers are ready with the given tools, except those named in `dead`. */
function stubMount(tools: Readonly<Record<string, readonly string[]>>, dead: readonly string[] = []) {
  const mounted: ServerConfig[][] = [];
  const mount: MountServers = (servers) => {
    mounted.push([...servers]);
    const phases = new Map<string, EndpointPhase>(
      servers.map((s) => [s.id, dead.includes(s.id) ? "faulted" : "ready"]),
    );
    const status = (id: string): EndpointStatus => ({
      server: id,
      phase: phases.get(id) ?? "closed",
      toolCount: phases.get(id) === "ready" ? (tools[id]?.length ?? 0) : 0,
    });
    const descriptors: ToolDescriptor[] = servers
      .filter((s) => phases.get(s.id) === "ready")
      .flatMap((s) =>
        (tools[s.id] ?? []).map((tool) => ({ name: `${s.id}__${tool}`, description: tool, parameters: {} })),
      );
    const box: ToolBox = {
      descriptors: () => descriptors,
      runner: {
        run: (call) =>
          Promise.resolve({ callId: call.id, content: [{ type: "text", text: call.name }], isError: false }),
      },
    };
    const endpoint = (id: string) =>
      phases.has(id)
        ? ({ config: { id }, close: () => Promise.resolve(phases.set(id, "closed")) } as unknown as McpEndpoint)
        : undefined;
    const fleet: McpFleet = {
      status: () => new Map(servers.map((s) => [s.id, status(s.id)])),
      endpoint,
      endpoints: () => servers.map((s) => endpoint(s.id)!),
      reconnect: (id) => Promise.resolve(endpoint(id)),
      spinUp: () => Promise.resolve(),
      tearDown: () => {
        for (const id of phases.keys()) phases.set(id, "closed");
        return Promise.resolve();
      },
    };
    return { box, fleet, settled: Promise.resolve() };
  };
  return { mount, mounted };
}

const unused: MountServers = () => {
  throw new Error("nothing to mount: the deck must not call the port");
};

describe("attachBridgeCapabilities", () => {
  it("lets the input ledger flow through untouched for an empty config", async () => {
    const ledger = emptyBridgeLedger();
    const result = await attachBridgeCapabilities(ledger, { servers: [] }, { mount: unused });
    expect(result.ledger).toBe(ledger);
    expect(result).toEqual({ ledger, enrolled: 0, settled: expect.any(Promise) });
  });

  it("with settleWithinMs, returns while a server still connects; it joins the live bridge when ready", async () => {
    let descriptors: ToolDescriptor[] = [{ name: "quick__echo", description: "echo", parameters: {} }];
    const changed = new Set<() => void>();
    let settle!: () => void;
    const box: ToolBox = {
      descriptors: () => descriptors,
      runner: { run: (call) => Promise.resolve({ callId: call.id, content: [], isError: false }) },
      onDescriptorsChanged: (listener) => {
        changed.add(listener);
        return () => changed.delete(listener);
      },
    };
    const fleet = {
      status: () => new Map(),
      endpoints: () => [],
      endpoint: () => undefined,
      tearDown: () => Promise.resolve(),
    } as unknown as McpFleet;
    const mount: MountServers = () => ({ box, fleet, settled: new Promise<void>((resolve) => (settle = resolve)) });
    const servers = [stdioServer("quick", "x"), stdioServer("slow", "x")];
    const result = await attachBridgeCapabilities(emptyBridgeLedger(), servers, { mount, settleWithinMs: 20 });
    expect(result.live?.capabilities().map((cap) => cap.name)).toEqual(["quick__echo"]);
    let settled = false;
    void result.settled.then(() => (settled = true));
    descriptors = [...descriptors, { name: "slow__echo", description: "echo", parameters: {} }];
    for (const listener of changed) listener();
    expect(result.live?.capabilities().map((cap) => cap.name)).toEqual(["quick__echo", "slow__echo"]);
    await Promise.resolve();
    expect(settled).toBe(false);
    settle();
    await result.settled;
  });

  it("skips invalid rows with a bridge fault, never throwing", async () => {
    const ledger = emptyBridgeLedger();
    const result = await attachBridgeCapabilities(
      ledger,
      [{ transport: "stdio", id: "bad id", command: "x" } as never],
      {
        mount: unused,
      },
    );
    expect(result.ledger).toBe(ledger);
    expect(result.fault?.kind).toBe("bridge");
    expect(result.fault?.message).toMatch(/servers\.0: id: must start with a letter/);
  });

  it("mounts only the valid servers through the port and enrolls the ready ones' tools", async () => {
    const { mount, mounted } = stubMount({ a: ["echo", "sum"], b: ["echo"] }, ["b"]);
    const servers = [
      stdioServer("a", "x"),
      { transport: "stdio", id: "bad id", command: "x" } as never,
      stdioServer("b", "x"),
    ];
    const result = await attachBridgeCapabilities(emptyBridgeLedger(), servers, { mount });
    expect(mounted.map((batch) => batch.map((s) => s.id))).toEqual([["a", "b"]]);
    expect(bridgeToolNames(result.ledger)).toEqual(["a__echo", "a__sum"]);
    expect(result.enrolled).toBe(2);
    expect(result.fault?.kind).toBe("bridge");
    expect([...bridgeStatus(result.fleet!).values()].map((s) => s.phase)).toEqual(["ready", "faulted"]);

    const deck = provisionDeck("authoring", deckContext(tempDir())).graft(result.live!);
    const outcome = await deck.intoToolBox().runner.run({ id: "1", name: "a__echo", input: {} });
    expect(resultText(outcome)).toBe("a__echo");
  });

  it("detachBridge withdraws the named servers, then the whole fleet", async () => {
    const { mount } = stubMount({ one: ["t"], two: ["t"] });
    const result = await attachBridgeCapabilities(
      emptyBridgeLedger(),
      [stdioServer("one", "x"), stdioServer("two", "x")],
      {
        mount,
      },
    );
    const partial = await detachBridge(result.ledger, result.fleet!, ["one"]);
    expect([...bridgeToolCounts(partial)]).toEqual([["two", 1]]);
    expect(result.fleet?.status().get("one")?.phase).toBe("closed");
    const none = await detachBridge(partial, result.fleet!);
    expect(bridgeToolNames(none)).toEqual([]);
    expect([...(result.fleet?.status().values() ?? [])].map((s) => s.phase)).toEqual(["closed", "closed"]);
  });
});

describe("loadMcpCapabilities", () => {
  it("returns an empty, inert boot when nothing is configured", async () => {
    const boot = await loadMcpCapabilities({ mcp: [] }, tempDir(), { env: { HOME: tempDir() }, mount: unused });
    expect(boot.capabilities).toEqual([]);
    expect(boot.servers).toEqual([]);
    expect(boot.status.size).toBe(0);
    expect(boot.source.capabilities()).toEqual([]);
    await boot.tearDown();
  });
});
