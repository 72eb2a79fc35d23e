// The bench's MCP clients: v2 `@modelcontextprotocol/client` over Streamable
// HTTP, calling `echo` and checking the answer. Used by http-gateway.mjs in
// its own thread (one client) and by http-client-worker.mjs (many clients).
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { inBatches } from "./raw-mcp-client.mjs";

export const MODERN = "2026-07-28";

/** `headers`: sent with every request (e.g. a bearer token for a gateway that requires one). */
export async function connect(url, era, headers = {}) {
  const client = new Client(
    { name: "http-gateway-bench", version: "1.0.0" },
    era === MODERN ? { versionNegotiation: { mode: { pin: MODERN } } } : {},
  );
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
  return client;
}

export function connectMany(url, era, count, headers = {}) {
  return inBatches(count, () => connect(url, era, headers));
}

/**
 * Keep-alive race: a pooled socket the server closes for idleness just as the
 * client reuses it fails ("other side closed", ECONNRESET) before the request
 * left; likelier here, as each path's clients sit idle while the others run.
 * Such a call is sent again once and counted; anything else fails the bench.
 */
const KEEP_ALIVE_RACE = new Set(["UND_ERR_SOCKET", "ECONNRESET"]);
export const resent = { count: 0 };

async function callOnce(client, tool, message) {
  try {
    return await client.callTool({ name: tool, arguments: { message } });
  } catch (error) {
    if (!KEEP_ALIVE_RACE.has(error?.cause?.code)) throw error;
    resent.count++;
    return client.callTool({ name: tool, arguments: { message } });
  }
}

export async function echo(client, tool, message) {
  const result = await callOnce(client, tool, message);
  if (result.isError || result.content?.[0]?.text !== `Echo: ${message}`) {
    throw new Error(`unexpected echo answer: ${JSON.stringify(result)}`);
  }
}
