/**
 * An ordinary 2026-07-28 client (the SDK answering `input_required` rounds by
 * itself) behind examples/nginx/nginx.conf: Debian's nginx round-robins every
 * request over two `indusr mcp serve --http --stateless` replicas, which
 * mount one 2026-era server whose tool asks two rounds of questions (its
 * state sealed by that server). Every call completes though its rounds land
 * on both replicas: the server's rounds pass through, nothing waits in a
 * replica. nginx is a machine tool, found on PATH (or in /usr/sbin): `.ci/run` installs it when absent.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { freePort, startNginxFront } from "@indus/testkit";
import type { NginxFront } from "@indus/testkit";
import { BIN, makeSandbox, runCli, type Sandbox } from "./support/run-cli";
import { gatewayFlags, servedUrl, stopChild } from "./support/relay-client";
import { writeConfig } from "./support/servers";

jest.setTimeout(180_000);

const ROOT = path.join(__dirname, "..", "..", "..");
const FIXTURE = path.join(ROOT, "packages", "testkit", "fixtures", "conformance-2026.mjs");
const FLOWS = 6;

let sandbox: Sandbox;
const children: ChildProcess[] = [];
let nginx: NginxFront | undefined;
let front: URL;

function started(child: ChildProcess, pattern: RegExp): Promise<string> {
  children.push(child);
  return new Promise((resolve, reject) => {
    let seen = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      seen += String(chunk);
      const match = pattern.exec(seen);
      if (match?.[1]) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${seen}`)));
  });
}

beforeAll(async () => {
  sandbox = makeSandbox();
  const upstream = await started(
    spawn(process.execPath, [FIXTURE, "http"], { stdio: ["ignore", "ignore", "pipe"] }),
    /listening at (http:\/\/\S+)/,
  );
  const config = writeConfig(sandbox.root, { conf: { url: upstream } });
  // Replicas never pin: the reviewed lock file ships beside the config.
  const approved = await runCli(["mcp", "approve", "conf", "--mcp", config], { sandbox });
  if (approved.code !== 0) throw new Error(`mcp approve failed: ${approved.stderr}`);
  const [a, b, port] = [await freePort(), await freePort(), await freePort()];
  const flags = [...(await gatewayFlags(sandbox)), "--stateless", "--allowed-hosts", `127.0.0.1:${port}`];
  const replica = (replicaPort: number) =>
    spawn(process.execPath, [BIN, "mcp", "serve", "--http", "--port", String(replicaPort), ...flags, "--mcp", config], {
      cwd: sandbox.cwd,
      env: sandbox.env,
      stdio: ["ignore", "ignore", "pipe"],
    });
  const replicas = [replica(a), replica(b)];
  children.push(...replicas);
  await Promise.all(replicas.map((child) => servedUrl(child)));

  nginx = await startNginxFront({ prefix: path.join(sandbox.root, "nginx"), port, replicas: [a, b] });
  front = nginx.url();
});

afterAll(async () => {
  await nginx?.stop();
  await Promise.all(children.map((child) => stopChild(child)));
  sandbox.cleanup();
});

/** A 2026 client that answers each form with a value per field it asks for. */
async function modernClient(): Promise<Client> {
  const client = new Client(
    { name: "behind-nginx", version: "1.0.0" },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  const answers: Record<string, string> = { name: "Ada", color: "teal" };
  client.setRequestHandler("elicitation/create", (request) => {
    const schema = (request.params as { requestedSchema?: { properties?: Record<string, unknown> } }).requestedSchema;
    const fields = Object.keys(schema?.properties ?? {});
    return { action: "accept", content: Object.fromEntries(fields.map((field) => [field, answers[field] ?? "?"])) };
  });
  await client.connect(new StreamableHTTPClientTransport(front));
  return client;
}

it("completes every multi-round call though its rounds land on both replicas", async () => {
  const client = await modernClient();
  const texts: string[] = [];
  for (let flow = 0; flow < FLOWS; flow++) {
    const result = await client.callTool({ name: "test_input_required_result_multi_round", arguments: {} });
    texts.push((result.content as { text?: string }[])[0]?.text ?? "");
  }
  await client.close();
  expect(texts).toEqual(Array.from({ length: FLOWS }, () => "Multi-round complete for Ada who likes teal"));

  const calls = nginx!.accessLog().filter((line) => line.includes('method="tools/call"'));
  // Three requests a flow (the call and two retries), every one answered, spread over both replicas.
  expect(calls).toHaveLength(3 * FLOWS);
  expect(calls.every((line) => line.startsWith("200 "))).toBe(true);
  expect(new Set(calls.map((line) => /upstream=(\S+)/.exec(line)?.[1])).size).toBe(2);
});
