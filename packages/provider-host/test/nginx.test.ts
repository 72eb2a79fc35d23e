/**
 * examples/nginx/nginx.conf in front of two provider-host replicas: Debian's
 * nginx in the foreground with its own prefix in a temp folder, on loopback.
 * 2026-07-28 calls round-robin with no affinity; a 2025-era session stays on
 * the replica whose marker its id carries. nginx is a machine tool like
 * ripgrep, found on PATH (or in /usr/sbin): `.ci/run` installs it when absent.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { freePort, startNginxFront } from "@indus/testkit";
import type { NginxFront } from "@indus/testkit";
import { spawnHttpHost } from "./support/processes";

jest.setTimeout(180_000);

const MODERN_CALLS = 1_000;
const IN_FLIGHT = 10;

type Replica = Awaited<ReturnType<typeof spawnHttpHost>>;

let prefix: string;
let nginx: NginxFront | undefined;
let replicas: Replica[] = [];
const ports = { a: 0, b: 0, front: 0 };

beforeAll(async () => {
  prefix = mkdtempSync(join(tmpdir(), "indus-nginx-"));
  ports.a = await freePort();
  ports.b = await freePort();
  ports.front = await freePort();
});

/**
 * Started once replicas listen: a proxied request that fails marks a replica
 * down for nginx's fail_timeout (10 s), which would turn the next calls into 502s.
 */
async function ensureNginx(): Promise<void> {
  nginx ??= await startNginxFront({ prefix, port: ports.front, replicas: [ports.a, ports.b] });
}

afterAll(async () => {
  await stopReplicas();
  await nginx?.stop();
  rmSync(prefix, { recursive: true, force: true });
});

function front(path = "/mcp"): URL {
  return new URL(`http://127.0.0.1:${ports.front}${path}`);
}

async function startReplicas(stateless: boolean): Promise<void> {
  const env = (marker: string) => ({ PH_SESSION_PREFIX: marker, PH_ALLOWED_HOSTS: `127.0.0.1:${ports.front}` });
  const flags = stateless ? ["--stateless"] : [];
  replicas = await Promise.all([
    spawnHttpHost(["demo", String(ports.a), ...flags], env("a.")),
    spawnHttpHost(["demo", String(ports.b), ...flags], env("b.")),
  ]);
  await ensureNginx();
}

async function stopReplicas(): Promise<void> {
  await Promise.all(replicas.map((replica) => replica.stop()));
  replicas = [];
}

/** Access-log lines (`status upstream=… session="…" method="…" "request"`) written since `from`. */
function accessLog(from: number): string[] {
  return nginx!.accessLog(from);
}

function logSize(): number {
  return nginx?.accessLogSize() ?? 0;
}

function upstreamOf(line: string): string {
  return /upstream=(\S+)/.exec(line)?.[1] ?? "";
}

async function client(era: "modern" | "legacy"): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const options = era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {};
  const client = new Client({ name: `nginx-${era}`, version: "1.0.0" }, options);
  const transport = new StreamableHTTPClientTransport(front());
  await client.connect(transport);
  return { client, transport };
}

afterEach(stopReplicas);

it("spreads 1,000 modern calls over two --stateless replicas with no affinity, none failing", async () => {
  await startReplicas(true);
  const { client: modern } = await client("modern");
  const from = logSize();
  let failed = 0;
  let next = 0;
  const worker = async () => {
    while (next < MODERN_CALLS) {
      const n = next++;
      const result = await modern
        .callTool({ name: "echo", arguments: { message: `m${n}` } })
        .catch(() => ({ content: [] }));
      const text = (result.content as Array<{ text?: string }>)[0]?.text;
      if (text !== `Echo: m${n}`) failed++;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  await modern.close();
  expect(failed).toBe(0);

  const calls = accessLog(from).filter((line) => line.includes('method="tools/call"'));
  expect(calls).toHaveLength(MODERN_CALLS);
  expect(calls.every((line) => line.startsWith("200 ") && line.includes('session="-"'))).toBe(true);
  const perReplica = countBy(calls.map(upstreamOf));
  expect(Object.keys(perReplica).sort()).toEqual([`127.0.0.1:${ports.a}`, `127.0.0.1:${ports.b}`].sort());
  for (const count of Object.values(perReplica)) expect(count).toBeGreaterThanOrEqual(MODERN_CALLS * 0.4);

  // A 2025-era client through the same nginx: stateless replicas give it no session, any replica serves it.
  const { client: legacy, transport } = await client("legacy");
  expect(legacy.getProtocolEra()).toBe("legacy");
  for (let n = 0; n < 10; n++) {
    const result = await legacy.callTool({ name: "echo", arguments: { message: `l${n}` } });
    expect(result.content).toEqual([{ type: "text", text: `Echo: l${n}` }]);
  }
  expect(transport.sessionId).toBeUndefined();
  await legacy.close();
});

it("pins a 2025-era session to the replica that minted it, from the first request after initialize", async () => {
  await startReplicas(false);
  for (let attempt = 0; attempt < 4; attempt++) {
    const from = logSize();
    const { client: legacy, transport } = await client("legacy");
    const sessionId = transport.sessionId ?? "";
    expect(sessionId).toMatch(/^[ab]\./);
    for (let n = 0; n < 20; n++) {
      const result = await legacy.callTool({ name: "echo", arguments: { message: `s${n}` } });
      expect(result.content).toEqual([{ type: "text", text: `Echo: s${n}` }]);
    }
    await legacy.close();
    const owner = sessionId.startsWith("a.") ? ports.a : ports.b;
    const lines = accessLog(from).filter((line) => line.includes(`session="${sessionId}"`));
    // notifications/initialized, the calls, and the closing DELETE all carried the id.
    expect(lines.length).toBeGreaterThanOrEqual(21);
    expect(lines.filter((line) => upstreamOf(line) !== `127.0.0.1:${owner}`)).toEqual([]);
    expect(lines.filter((line) => line.startsWith("404 "))).toEqual([]);
  }
  // Modern calls still round-robin next to the pinned sessions.
  const { client: modern } = await client("modern");
  const from = logSize();
  for (let n = 0; n < 20; n++) await modern.callTool({ name: "echo", arguments: { message: `r${n}` } });
  await modern.close();
  const upstreams = new Set(
    accessLog(from)
      .filter((line) => line.includes('method="tools/call"'))
      .map(upstreamOf),
  );
  expect(upstreams.size).toBe(2);
});

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}
