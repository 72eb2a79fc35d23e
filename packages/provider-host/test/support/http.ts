/** Raw HTTP for tests that need headers fetch forbids (Host) or exact bytes. */
import { request } from "node:http";
import type { RpcMessage } from "./processes";

export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

export const MCP_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

export function rawRequest(
  url: URL,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; path?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        path: options.path ?? url.pathname,
        method: options.method ?? "POST",
        headers: options.headers ?? MCP_HEADERS,
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(options.body);
  });
}

/** Opens a 2025-era session with a raw `initialize`; the headers for its later requests. */
export async function openSession(url: URL): Promise<Record<string, string>> {
  const opened = await rawRequest(url, { body: JSON.stringify(INITIALIZE) });
  return {
    ...MCP_HEADERS,
    "mcp-session-id": String(opened.headers["mcp-session-id"]),
    "mcp-protocol-version": "2025-06-18",
  };
}

/** The JSON-RPC messages in a response body, whether plain JSON or SSE. */
export function messagesOf(response: RawResponse): RpcMessage[] {
  const type = String(response.headers["content-type"] ?? "");
  if (type.includes("text/event-stream")) {
    return response.body
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => JSON.parse(line.slice(6)) as RpcMessage);
  }
  return response.body === "" ? [] : [JSON.parse(response.body) as RpcMessage];
}
