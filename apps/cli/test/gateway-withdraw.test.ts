/**
 * A question a server withdraws is withdrawn through the gateway too: the
 * mounted server (2025 era, stdio) asks the calling client a form question,
 * then cancels its own request. The client in front of `indusr mcp serve`
 * must see that cancellation (its handler's signal aborts) instead of being
 * left holding a question nobody waits for, and the call still completes.
 */
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { FIXTURES, waitFor } from "@indus/testkit";
import { makeSandbox, type Sandbox } from "./support/run-cli";
import { writeConfig } from "./support/servers";
import {
  HOST_CAPABILITIES,
  gatewayFlags,
  httpTransport,
  startHttpGateway,
  stdioGatewayTransport,
  type HttpGateway,
} from "./support/relay-client";

jest.setTimeout(60_000);

const asker = (...args: string[]) => ({
  command: process.execPath,
  args: [join(FIXTURES, "logging-asker.mjs"), ...args],
  protocol: "legacy",
});

let sandbox: Sandbox;
let config: string;
let flags: string[];
let gateway: HttpGateway;
const open: Client[] = [];

beforeAll(async () => {
  sandbox = makeSandbox();
  config = writeConfig(sandbox.root, { asker: asker("legacy-only") });
  flags = await gatewayFlags(sandbox);
  gateway = await startHttpGateway(sandbox, config, flags);
});
afterAll(async () => {
  await gateway.stop();
  sandbox.cleanup();
});
afterEach(async () => {
  for (const client of open.splice(0)) await client.close().catch(() => undefined);
});

/** A client whose elicitation handler answers only when `answerAfterMs` elapses, recording a withdrawal. */
function patientClient(era: "2025" | "2026-07-28", answerAfterMs: number) {
  const pinned = era === "2026-07-28" ? { versionNegotiation: { mode: { pin: era } } } : {};
  const client = new Client({ name: "patient", version: "1.0.0" }, { capabilities: HOST_CAPABILITIES, ...pinned });
  const seen = { asked: 0, withdrawn: [] as unknown[] };
  client.setRequestHandler("elicitation/create", (_request, ctx) => {
    seen.asked += 1;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve({ action: "accept", content: { ok: true } }), answerAfterMs);
      ctx.mcpReq.signal.addEventListener("abort", () => {
        clearTimeout(timer);
        seen.withdrawn.push(ctx.mcpReq.signal.reason);
        reject(new Error("withdrawn"));
      });
    });
  });
  open.push(client);
  return { client, seen };
}

async function toolName(client: Client, name: string): Promise<string> {
  const names = (await client.listTools()).tools.map((tool) => tool.name);
  return names.find((candidate) => candidate === name || candidate.endsWith(`__${name}`)) ?? name;
}

function textOf(result: unknown): string {
  return ((result as { content: { text?: string }[] }).content[0]?.text ?? "").trim();
}

describe.each(["stdio", "http"] as const)("indusr mcp serve --%s, a 2025-era client", (wire) => {
  test("a question the server withdraws is cancelled at the client, and the call completes", async () => {
    const { client, seen } = patientClient("2025", 30_000);
    await client.connect(wire === "http" ? httpTransport(gateway.url) : stdioGatewayTransport(sandbox, config, flags));
    const name = await toolName(client, "ask_then_withdraw");
    const result = await client.callTool({ name, arguments: { ms: 300 } });
    expect(textOf(result)).toBe("withdrawn");
    expect(seen.asked).toBe(1);
    await waitFor("the client told the question was withdrawn", () => seen.withdrawn.length === 1);
  });

  test.each(["ask_later", "ask_at_answer"])(
    "a question asked outside any call (%s), then withdrawn, is cancelled at the client it went to",
    async (tool) => {
      const { client, seen } = patientClient("2025", 30_000);
      await client.connect(
        wire === "http" ? httpTransport(gateway.url) : stdioGatewayTransport(sandbox, config, flags),
      );
      expect(textOf(await client.callTool({ name: await toolName(client, tool), arguments: {} }))).toBe("will ask");
      await waitFor("the client asked the question", () => seen.asked === 1);
      const withdraw = await toolName(client, "withdraw");
      expect(textOf(await client.callTool({ name: withdraw, arguments: {} }))).toBe("withdrew 1");
      await waitFor("the client told the question was withdrawn", () => seen.withdrawn.length === 1);
    },
  );

  test("a client cancelling its call has the question it was asked withdrawn too", async () => {
    const { client, seen } = patientClient("2025", 30_000);
    await client.connect(wire === "http" ? httpTransport(gateway.url) : stdioGatewayTransport(sandbox, config, flags));
    const name = await toolName(client, "ask_then_withdraw");
    const cancel = new AbortController();
    const call = client.callTool({ name, arguments: { ms: 30_000 } }, { signal: cancel.signal });
    await waitFor("the client asked the question", () => seen.asked === 1);
    cancel.abort("the user went away");
    await expect(call).rejects.toThrow();
    await waitFor("the client told the question was withdrawn", () => seen.withdrawn.length === 1);
  });
});

test("a 2026-07-28 client that answers a withdrawn question late still gets the call's result", async () => {
  const { client, seen } = patientClient("2026-07-28", 1_000);
  await client.connect(httpTransport(gateway.url));
  const name = await toolName(client, "ask_then_withdraw");
  const result = await client.callTool({ name, arguments: { ms: 300 } });
  expect(textOf(result)).toBe("withdrawn");
  expect(seen.asked).toBe(1);
});
