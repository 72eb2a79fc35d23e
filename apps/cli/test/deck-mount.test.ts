import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ServerConfig } from "@indus/contract";
import { stdioServer } from "@indus/contract";
import {
  BridgeCapability,
  type ServerProgress,
  attachBridgeCapabilities,
  bridgeCapabilityCard,
  bridgeStatus,
  bridgeToolCounts,
  bridgeToolNames,
  deckContext,
  detachBridge,
  emptyBridgeLedger,
  foldResult,
  loadMcpCapabilities,
  provisionDeck,
  resultText,
} from "@indus/deck";
import { fleetMount } from "@indus/fleet";
import { FIXTURES, changing, waitFor } from "@indus/testkit";

jest.setTimeout(120_000);

// The deck mounts servers through the port the CLI wires (`fleetMount`): these
// are the deck's grafting paths against real servers, so they live where the
// wiring does.
const modules = path.join(__dirname, "..", "node_modules", "@modelcontextprotocol");
const everything = (id = "everything"): ServerConfig =>
  stdioServer(id, process.execPath, [path.join(modules, "server-everything", "dist", "index.js"), "stdio"]);
const filesystem = (root: string, id = "filesystem"): ServerConfig =>
  stdioServer(id, process.execPath, [path.join(modules, "server-filesystem", "dist", "index.js"), root]);
const mount = fleetMount({ connectTimeoutMs: 60_000 });

const made: string[] = [];
function tempDir(prefix = "cli-mount-"): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  made.push(dir);
  return dir;
}
function write(root: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  }
}

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  await Promise.all(cleanups.map((f) => f().catch(() => undefined)));
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("attachBridgeCapabilities", () => {
  describe("with server-everything, server-filesystem and a dead server", () => {
    const root = tempDir("deck-fs-");
    write(root, { "hello.txt": "hello from the filesystem server\n" });
    const progress: ServerProgress[] = [];
    let result: Awaited<ReturnType<typeof attachBridgeCapabilities>>;

    beforeAll(async () => {
      result = await attachBridgeCapabilities(
        emptyBridgeLedger(),
        [everything(), filesystem(root), stdioServer("ghost", "/nonexistent/indus-no-such-server")],
        { mount, onProgress: (p) => progress.push(p) },
      );
      cleanups.push(() => result.fleet?.tearDown() ?? Promise.resolve());
    });

    it("isolates the failure: two servers ready, the dead one faulted, in config order", () => {
      const status = bridgeStatus(result.fleet!);
      expect([...status.keys()]).toEqual(["everything", "filesystem", "ghost"]);
      expect(status.get("everything")?.phase).toBe("ready");
      expect(status.get("filesystem")?.phase).toBe("ready");
      expect(status.get("ghost")?.phase).toBe("faulted");
      expect(status.get("ghost")?.fault?.kind).toBe("spawn-failed");
      expect(result.status).toEqual(status);
      expect(result.fault).toBeUndefined();
    });

    it("enrolls every ready tool in the ledger under its qualified name", () => {
      const names = bridgeToolNames(result.ledger);
      expect(names).toEqual(
        expect.arrayContaining([
          "everything__echo",
          "everything__get-sum",
          "filesystem__read_text_file",
          "filesystem__list_directory",
        ]),
      );
      expect(names.every((n) => n.startsWith("everything__") || n.startsWith("filesystem__"))).toBe(true);
      expect(result.enrolled).toBe(names.length);
      const counts = bridgeToolCounts(result.ledger);
      expect([...counts.keys()]).toEqual(["everything", "filesystem"]);
      expect((counts.get("everything") ?? 0) + (counts.get("filesystem") ?? 0)).toBe(names.length);
      expect(result.ledger.log.every((e) => e.op === "enroll")).toBe(true);
    });

    it("reports per-server progress while connecting", () => {
      const last = new Map(progress.map((p) => [p.server, p]));
      expect(last.get("everything")?.phase).toBe("ready");
      expect(last.get("everything")?.toolCount).toBeGreaterThan(0);
      expect(last.get("ghost")?.phase).toBe("faulted");
      expect(progress.some((p) => p.phase === "connecting" || p.phase === "idle")).toBe(true);
    });

    it("adapts each tool to a Card that is never read-only and catalogs it in no profile", () => {
      const echo = result.live?.capabilities().find((c) => c.name === "everything__echo") as BridgeCapability;
      expect(echo).toBeInstanceOf(BridgeCapability);
      expect(echo.server).toBe("everything");
      expect(echo.tool).toBe("echo");
      expect(echo.readOnly).toBe(false);
      const card = bridgeCapabilityCard(echo);
      expect(card).toMatchObject({ id: "everything__echo", title: "everything__echo", profiles: [] });
      expect(card.build(deckContext("/tmp"))).toBe(echo);
    });

    it("runs a built-in and remote tools from both servers through one intoToolBox()", async () => {
      const deck = provisionDeck("all", deckContext(root)).graft(result.live as never);
      const box = deck.intoToolBox();
      const names = box.descriptors().map((d) => d.name);
      expect(names.slice(0, 19)).toEqual(
        provisionDeck("all", deckContext(root))
          .tools()
          .map((t) => t.name),
      );
      expect(names).toContain("everything__echo");
      expect(typeof box.onDescriptorsChanged).toBe("function");

      const read = await box.runner.run({ id: "1", name: "read", input: { path: "hello.txt" } });
      expect(resultText(read)).toContain("hello from the filesystem server");
      const echo = await box.runner.run({ id: "2", name: "everything__echo", input: { message: "hi there" } });
      expect(echo.isError).toBe(false);
      expect(resultText(echo)).toContain("hi there");
      const listed = await box.runner.run({ id: "3", name: "filesystem__list_directory", input: { path: root } });
      expect(listed.isError).toBe(false);
      expect(resultText(listed)).toContain("hello.txt");
      const sum = await box.runner.run({ id: "4", name: "everything__get-sum", input: { a: 2, b: 3 } });
      expect(resultText(sum)).toContain("5");
      const image = await box.runner.run({ id: "5", name: "everything__get-tiny-image", input: {} });
      expect(image.content.some((b) => b.type === "json" && (b.value as { type?: string }).type === "image")).toBe(
        true,
      );
      const bad = await box.runner.run({ id: "6", name: "filesystem__read_text_file", input: { path: "/etc/passwd" } });
      expect(bad.isError).toBe(true);
      expect(foldResult(bad)).toBeDefined();
    });
  });
});

describe("a live graft follows tool-list changes through the ledger", () => {
  it("turns tools/list_changed into retire and enroll events the deck follows", async () => {
    const result = await attachBridgeCapabilities(emptyBridgeLedger(), [changing()], { mount });
    cleanups.push(() => result.fleet?.tearDown() ?? Promise.resolve());
    const live = result.live as NonNullable<typeof result.live>;
    expect(bridgeToolNames(live.ledger())).toEqual(["changing__alpha", "changing__beta", "changing__swap"]);
    const deck = provisionDeck("authoring", deckContext(tempDir())).graft(live);
    const box = deck.intoToolBox();
    let heard = 0;
    box.onDescriptorsChanged?.(() => heard++);
    const before = live.ledger();

    const swapped = await box.runner.run({ id: "s", name: "changing__swap", input: {} });
    expect(resultText(swapped)).toBe("swapped");
    await waitFor("the tool box told of changed descriptors", () => heard > 0);

    const names = box.descriptors().map((d) => d.name);
    expect(names).toContain("changing__gamma");
    expect(names).not.toContain("changing__beta");
    const newEntries = live.ledger().logAfter(before.snapshot.highWater);
    expect(newEntries.map((e) => [e.op, e.server])).toEqual([
      ["retire", "changing"],
      ["enroll", "changing"],
    ]);
    // The value returned at attach time never changes.
    expect(bridgeToolNames(result.ledger)).toEqual(["changing__alpha", "changing__beta", "changing__swap"]);
    expect(resultText(await box.runner.run({ id: "g", name: "changing__gamma", input: { text: "x" } }))).toBe(
      "gamma:x",
    );
    expect((await box.runner.run({ id: "b", name: "changing__beta", input: {} })).isError).toBe(true);

    // Detaching retires the server's tools and closes it; the deck follows.
    const after = await live.detach(["changing"]);
    expect(bridgeToolNames(after)).toEqual([]);
    expect(box.descriptors().some((d) => d.name.startsWith("changing__"))).toBe(false);
    expect(result.fleet?.status().get("changing")?.phase).toBe("closed");
  });

  it("detachBridge withdraws every server of a fleet and tears it down", async () => {
    const result = await attachBridgeCapabilities(emptyBridgeLedger(), [changing("one"), changing("two")], {
      mount,
    });
    cleanups.push(() => result.fleet?.tearDown() ?? Promise.resolve());
    expect([...bridgeToolCounts(result.ledger)]).toEqual([
      ["one", 3],
      ["two", 3],
    ]);
    const partial = await detachBridge(result.ledger, result.fleet!, ["one"]);
    expect([...bridgeToolCounts(partial)]).toEqual([["two", 3]]);
    expect(result.fleet?.status().get("one")?.phase).toBe("closed");
    expect(result.fleet?.status().get("two")?.phase).toBe("ready");
    const none = await detachBridge(partial, result.fleet!);
    expect(bridgeToolNames(none)).toEqual([]);
    expect([...(result.fleet?.status().values() ?? [])].map((s) => s.phase)).toEqual(["closed", "closed"]);
  });
});

describe("loadMcpCapabilities", () => {
  it("discovers the cwd's config when no --mcp is given, reporting diagnostics", async () => {
    const cwd = tempDir("deck-boot-");
    const home = tempDir("deck-boot-home-");
    write(cwd, {
      ".indusvx/mcp.json": JSON.stringify({
        servers: {
          changing: { command: process.execPath, args: [path.join(FIXTURES, "changing-server.mjs")] },
          broken: { url: "nope" },
        },
      }),
    });
    const boot = await loadMcpCapabilities({}, cwd, { env: { HOME: home }, mount });
    cleanups.push(() => boot.tearDown());
    expect(boot.servers.map((s) => s.id)).toEqual(["changing"]);
    expect(boot.capabilities.map((c) => c.name)).toEqual(["changing__alpha", "changing__beta", "changing__swap"]);
    expect(boot.diagnostics).toEqual([
      {
        kind: "row",
        file: path.join(cwd, ".indusvx/mcp.json"),
        row: "servers.broken",
        message: expect.stringMatching(/^url: /),
        severity: "error",
      },
    ]);
    expect(boot.origins.get("changing")?.scope).toBe("project");
    expect(boot.status.get("changing")?.phase).toBe("ready");
    const deck = provisionDeck("authoring", deckContext(cwd)).graft(boot.source);
    expect(deck.tools().map((t) => t.name)).toContain("changing__alpha");
    await boot.tearDown();
    expect(boot.status.get("changing")?.phase).toBe("ready"); // a snapshot
    expect(boot.fleet?.status().get("changing")?.phase).toBe("closed");
    expect(deck.tools().some((t) => t.name.startsWith("changing__"))).toBe(false);
  });

  it("lets explicit --mcp paths win over discovery, merging them with the first definition winning", async () => {
    const cwd = tempDir("deck-boot-");
    write(cwd, { ".indusvx/mcp.json": JSON.stringify({ servers: { discovered: { command: "never-started" } } }) });
    const dir = tempDir("deck-boot-cfg-");
    const server = { command: process.execPath, args: [path.join(FIXTURES, "changing-server.mjs")] };
    write(dir, {
      "a.json": JSON.stringify({ mcpServers: { first: server } }),
      "b.json": JSON.stringify({ servers: { first: { command: "shadowed" }, second: server } }),
    });
    const boot = await loadMcpCapabilities(
      { mcp: [path.join(dir, "a.json"), path.join(dir, "b.json"), path.join(dir, "missing.json")] },
      cwd,
      {
        env: { HOME: tempDir() },
        mount,
      },
    );
    cleanups.push(() => boot.tearDown());
    expect(boot.servers.map((s) => s.id)).toEqual(["first", "second"]);
    expect([...boot.status.keys()]).toEqual(["first", "second"]);
    expect(boot.diagnostics.map((d) => [path.basename(d.file), d.row, d.severity])).toEqual([
      ["b.json", "servers.first", "warning"],
      ["missing.json", undefined, "error"],
    ]);
    expect(boot.capabilities).toHaveLength(6);
    await boot.tearDown();
  });
});
