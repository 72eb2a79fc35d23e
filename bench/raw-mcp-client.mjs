// A lean MCP client over Streamable HTTP for the gateway benches: JSON-RPC
// written by hand on `node:http` with one keep-alive socket per client, the
// answer (JSON or an SSE stream) parsed and checked, nothing else. The SDK
// client spends about as much CPU per call as a gateway; on a 2-core machine
// the load generator then takes the cores the gateways need and every ratio
// drifts towards 1. This client costs a fraction of that (the benches print
// its CPU per call), and every target gets the same one.
//
//   const client = await connectRaw(url, era, headers);
//   await client.echo(tool, "hi");   // throws unless the answer is "Echo: hi"
//   await client.close();
import http from "node:http";

export const MODERN = "2026-07-28";
const LEGACY_VERSION = "2025-11-25";
const CLIENT_INFO = { name: "raw-bench-client", version: "1.0.0" };
const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
  "io.modelcontextprotocol/clientCapabilities": {},
};

/**
 * Keep-alive race: a pooled socket the server closes for idleness just as the
 * client reuses it fails before the request left; likelier in a bench, as each
 * path's clients sit idle while the others run. Such a call is sent again once
 * and counted; anything else fails the bench.
 */
const KEEP_ALIVE_RACE = new Set(["ECONNRESET", "EPIPE"]);
export const resent = { count: 0 };

function post(agent, url, headers, body) {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: "POST", agent, headers }, (response) => {
      const chunks = [];
      response.on("data", (chunk) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode, headers: response.headers, text: Buffer.concat(chunks).toString() }),
      );
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(body);
  });
}

/** The JSON-RPC answer with id `id` from a JSON body or an SSE stream's `data:` lines. */
function answerOf(reply, id) {
  if (reply.status !== 200) throw new Error(`HTTP ${reply.status}: ${reply.text.slice(0, 200)}`);
  const bodies = String(reply.headers["content-type"]).startsWith("text/event-stream")
    ? reply.text
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5))
        // A resumable stream (server-everything's own HTTP mode) opens with an empty priming event.
        .filter((data) => data.trim() !== "")
    : [reply.text];
  for (const body of bodies) {
    const message = JSON.parse(body);
    if (message.id === id) {
      if (message.error) throw new Error(`JSON-RPC error: ${JSON.stringify(message.error)}`);
      return message.result;
    }
  }
  throw new Error(`no answer with id ${id} in: ${reply.text.slice(0, 200)}`);
}

class RawClient {
  #url;
  #era;
  #headers;
  #agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  #nextId = 1;

  constructor(url, era, headers) {
    this.#url = url;
    this.#era = era;
    this.#headers = {
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      ...headers,
    };
  }

  async open() {
    if (this.#era === MODERN) {
      this.#headers["mcp-protocol-version"] = MODERN;
      await this.request("server/discover", { _meta: MODERN_META }, { "mcp-method": "server/discover" });
      return;
    }
    const params = { protocolVersion: LEGACY_VERSION, capabilities: {}, clientInfo: CLIENT_INFO };
    const reply = await post(this.#agent, this.#url, this.#headers, this.#body("initialize", params, 0));
    answerOf(reply, 0);
    const session = reply.headers["mcp-session-id"];
    if (typeof session === "string") this.#headers["mcp-session-id"] = session;
    this.#headers["mcp-protocol-version"] = LEGACY_VERSION;
    const note = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });
    const noted = await post(this.#agent, this.#url, this.#headers, note);
    if (noted.status !== 202) throw new Error(`notifications/initialized: HTTP ${noted.status}`);
  }

  #body(method, params, id) {
    return JSON.stringify({ jsonrpc: "2.0", id, method, params });
  }

  async request(method, params, extraHeaders = {}) {
    const id = this.#nextId++;
    const headers = { ...this.#headers, ...extraHeaders };
    const body = this.#body(method, params, id);
    try {
      return answerOf(await post(this.#agent, this.#url, headers, body), id);
    } catch (error) {
      if (!KEEP_ALIVE_RACE.has(error?.code)) throw error;
      resent.count++;
      return answerOf(await post(this.#agent, this.#url, headers, body), id);
    }
  }

  async echo(tool, message) {
    const modern = this.#era === MODERN;
    const params = { name: tool, arguments: { message }, ...(modern ? { _meta: MODERN_META } : {}) };
    const extra = modern ? { "mcp-method": "tools/call", "mcp-name": tool } : {};
    const result = await this.request("tools/call", params, extra);
    if (result.isError || result.content?.[0]?.text !== `Echo: ${message}`) {
      throw new Error(`unexpected echo answer: ${JSON.stringify(result)}`);
    }
  }

  async close() {
    const session = this.#headers["mcp-session-id"];
    if (session !== undefined) {
      await new Promise((resolve) => {
        const request = http.request(this.#url, { method: "DELETE", agent: this.#agent, headers: this.#headers });
        request.on("response", (response) => response.resume().on("end", resolve));
        request.on("error", resolve);
        request.end();
      });
    }
    this.#agent.destroy();
  }
}

/** `headers`: sent with every request (e.g. a bearer token for a gateway that requires one). */
export async function connectRaw(url, era, headers = {}) {
  const client = new RawClient(new URL(url), era, headers);
  await client.open();
  return client;
}

/** `count` results of `open`, opened 8 at a time (a gateway's accept queue is not the measure). */
export async function inBatches(count, open) {
  const opened = [];
  while (opened.length < count) {
    const batch = Math.min(8, count - opened.length);
    opened.push(...(await Promise.all(Array.from({ length: batch }, open))));
  }
  return opened;
}

export function connectManyRaw(url, era, count, headers = {}) {
  return inBatches(count, () => connectRaw(url, era, headers));
}
