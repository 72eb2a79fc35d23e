/** The host's own HTTP answers (guards, routing, health), as JSON-RPC error bodies MCP clients understand. */
import type { ServerResponse } from "node:http";

/** A JSON-RPC error answered over HTTP, with the headers its status calls for (Retry-After, WWW-Authenticate, Allow). */
export interface ErrorReply {
  readonly status: number;
  readonly code: number;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export function sendError(response: ServerResponse, status: number, code: number, message: string): void {
  sendErrorReply(response, { status, code, message });
}

export function sendErrorReply(response: ServerResponse, { status, code, message, headers = {} }: ErrorReply): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.writeHead(status, { "Content-Type": "application/json", ...headers });
  response.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

export function sendMethodNotAllowed(response: ServerResponse, allow: string): void {
  sendErrorReply(response, { status: 405, code: -32000, message: "Method not allowed.", headers: { Allow: allow } });
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
