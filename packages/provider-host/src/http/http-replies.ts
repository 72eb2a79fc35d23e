/** The host's own HTTP answers (guards, routing, health), as JSON-RPC error bodies MCP clients understand. */
import type { ServerResponse } from "node:http";

export function sendError(
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.writeHead(status, { "Content-Type": "application/json", ...headers });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

export function sendMethodNotAllowed(response: ServerResponse, allow: string): void {
  sendError(response, 405, -32000, "Method not allowed.", { Allow: allow });
}

/** `/readyz`: 200 once the box is ready to serve (its mounts settled), 503 before and while draining. */
export function sendReadiness(response: ServerResponse, draining: boolean, ready: boolean): void {
  const status = draining ? "draining" : ready ? "ready" : "starting";
  response.writeHead(status === "ready" ? 200 : 503, {
    "Content-Type": "application/json",
    "Cache-Control": "no-store",
  });
  response.end(JSON.stringify({ status }));
}

export function sendHealth(response: ServerResponse, draining: boolean): void {
  response.writeHead(draining ? 503 : 200, { "Content-Type": "application/json", "Cache-Control": "no-store" });
  response.end(JSON.stringify({ status: draining ? "draining" : "ok" }));
}
