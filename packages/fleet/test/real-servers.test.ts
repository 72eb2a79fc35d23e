/**
 * The real npm servers mounted at once: server-everything over stdio, SSE and
 * Streamable HTTP, server-filesystem and server-memory (the latter behind an
 * `sh -c` wrapper). List, call a tool on each, tear down, and check that no
 * process we started survives.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sseServer, streamableHttpServer, type ToolOutcome } from "@indus/contract";
import { mountProtocolBridge, type MountedProtocolBridge } from "@indus/fleet";
import { everythingStdio, npmServerEntry } from "@indus/testkit";
import { startEverythingHttp, type EverythingHttp } from "@indus/testkit";
import { descendantsOf, inGroups, liveInGroups, waitFor } from "@indus/testkit";

jest.setTimeout(120_000);

let sse: EverythingHttp;
let streamable: EverythingHttp;
let dir: string;
let mounted: MountedProtocolBridge;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "indus-fleet-real-"));
  fs.writeFileSync(path.join(dir, "hello.txt"), "hello from disk\n");
  [sse, streamable] = await Promise.all([startEverythingHttp("sse"), startEverythingHttp("streamableHttp")]);
  mounted = await mountProtocolBridge(
    {
      servers: [
        everythingStdio("everything"),
        sseServer("everything_sse", sse.url),
        streamableHttpServer("everything_http", streamable.url),
        {
          transport: "stdio",
          id: "fs",
          command: process.execPath,
          args: [npmServerEntry("server-filesystem"), dir],
          env: {},
        },
        {
          transport: "stdio",
          id: "memory",
          command: "sh",
          args: ["-c", `"${process.execPath}" "${npmServerEntry("server-memory")}"; true`],
          env: { MEMORY_FILE_PATH: path.join(dir, "memory.jsonl") },
        },
      ],
    },
    { connectTimeoutMs: 60_000 },
  );
});

afterAll(async () => {
  await mounted?.fleet.tearDown();
  await Promise.all([sse?.stop(), streamable?.stop()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

const call = (name: string, input: unknown): Promise<ToolOutcome> => mounted.box.runner.run({ id: name, name, input });
const text = (outcome: ToolOutcome) =>
  outcome.content.map((block) => (block.type === "text" ? block.text : JSON.stringify(block.value))).join("\n");

it("mounts all five, lists them, calls a tool on each, and leaves no process behind", async () => {
  const status = mounted.fleet.status();
  expect([...status.values()].map((s) => `${s.server}:${s.phase}`)).toEqual([
    "everything:ready",
    "everything_sse:ready",
    "everything_http:ready",
    "fs:ready",
    "memory:ready",
  ]);
  expect(mounted.fleet.endpoint("everything_http")!.transportKind).toBe("streamable-http");
  const names = new Set(mounted.box.descriptors().map((descriptor) => descriptor.name));
  for (const name of [
    "everything__echo",
    "everything_sse__echo",
    "everything_http__echo",
    "fs__list_directory",
    "fs__read_text_file",
    "memory__create_entities",
    "memory__read_graph",
  ]) {
    expect(names).toContain(name);
  }

  for (const id of ["everything", "everything_sse", "everything_http"]) {
    const outcome = await call(`${id}__echo`, { message: id });
    expect(outcome).toMatchObject({ isError: false, content: [{ type: "text", text: `Echo: ${id}` }] });
  }
  const listing = await call("fs__list_directory", { path: dir });
  expect(listing.isError).toBe(false);
  expect(text(listing)).toContain("hello.txt");
  const file = await call("fs__read_text_file", { path: path.join(dir, "hello.txt") });
  expect(text(file)).toContain("hello from disk");
  const created = await call("memory__create_entities", {
    entities: [{ name: "indus", entityType: "project", observations: ["bridges MCP"] }],
  });
  expect(created.isError).toBe(false);
  const graph = await call("memory__read_graph", {});
  expect(text(graph)).toContain("bridges MCP");

  const stdio = mounted.fleet.endpoints().flatMap((endpoint) => (endpoint.pid === undefined ? [] : [endpoint.pid]));
  expect(stdio).toHaveLength(3);
  const memoryGroup = inGroups([mounted.fleet.endpoint("memory")!.pid!]);
  expect(memoryGroup.length).toBeGreaterThanOrEqual(2); // sh and the server under it

  await mounted.fleet.tearDown();
  expect([...mounted.fleet.status().values()].every((s) => s.phase === "closed")).toBe(true);
  expect(liveInGroups(stdio)).toEqual([]);
  for (const row of memoryGroup) expect(liveInGroups([row.pgid]).map((r) => r.pid)).not.toContain(row.pid);
  await waitFor("every stdio server's process group gone", () => inGroups(stdio).length === 0);
  const mine = descendantsOf(process.pid).filter((row) => !row.stat.startsWith("Z"));
  expect(
    mine.filter((row) => row.command.includes("server-filesystem") || row.command.includes("server-memory")),
  ).toEqual([]);
});
