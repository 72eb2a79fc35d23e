/**
 * The loopback server behind `/app`: two listeners on 127.0.0.1 only (the
 * host page's origin and the sandbox's, two ports), each checking the Host
 * header (no DNS rebinding) and a random token per session. The page's URL
 * carries the host token; its API calls send it in a header (so no other
 * page can make them: a cross-origin request with that header needs a
 * preflight this server never answers). The sandbox has a token of its own,
 * so the view, which can read its frame's URL, never holds the host's.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type { JsonObject } from "@indus/contract";
import { allowAttribute, hostPage, sandboxCsp, sandboxPage } from "./app-pages";

/** What the pages ask of indusr for one view. */
export interface AppRequests {
  /** The view's document, its metadata, and the call that opened it; undefined for an unknown view. */
  view(viewId: string): Promise<JsonObject | undefined>;
  /** The view's `_meta.ui` (csp, permissions) once its document was read. */
  viewMeta(viewId: string): JsonObject | undefined;
  /** A tool call the view makes (the server's own tool name): the `CallToolResult`. */
  call(viewId: string, name: string, args: JsonObject): Promise<JsonObject>;
  /** A resource read the view makes: the `ReadResourceResult`. */
  read(viewId: string, uri: string): Promise<JsonObject>;
}

const MAX_BODY = 1 << 20;

function token(): string {
  return randomBytes(24).toString("base64url");
}

/** Replies with the headers every answer carries; a page's own CSP is set on `res` before. */
function send(res: http.ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, {
    "content-type": type,
    "cache-control": "no-store",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
  });
  res.end(body);
}

async function readJson(req: http.IncomingMessage): Promise<JsonObject> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new Error("request body too large");
    chunks.push(chunk);
  }
  const value: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("body must be an object");
  return value as JsonObject;
}

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

export class AppServer {
  private readonly hostToken = token();
  private readonly sandboxToken = token();
  private readonly host = http.createServer((req, res) => void this.onHost(req, res));
  private readonly sandbox = http.createServer((req, res) => this.onSandbox(req, res));
  private hostPort = 0;
  private sandboxPort = 0;

  private constructor(
    private readonly requests: AppRequests,
    private readonly version: string,
  ) {}

  static async start(requests: AppRequests, version: string): Promise<AppServer> {
    const server = new AppServer(requests, version);
    server.hostPort = await listen(server.host);
    server.sandboxPort = await listen(server.sandbox);
    return server;
  }

  /** The page for one view (the URL the user opens). */
  urlOf(viewId: string): string {
    return `http://127.0.0.1:${this.hostPort}/app/${viewId}?t=${this.hostToken}`;
  }

  async close(): Promise<void> {
    for (const server of [this.host, this.sandbox]) server.closeAllConnections();
    await Promise.all(
      [this.host, this.sandbox].map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
    );
  }

  private onSandbox(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url ?? "/", `http://127.0.0.1:${this.sandboxPort}`);
    const viewId = /^\/sandbox\/([\w-]+)$/.exec(url.pathname)?.[1];
    if (req.headers.host !== `127.0.0.1:${this.sandboxPort}` || url.searchParams.get("t") !== this.sandboxToken) {
      send(res, 403, "text/plain", "forbidden");
      return;
    }
    const meta = viewId === undefined ? undefined : this.requests.viewMeta(viewId);
    if (meta === undefined) {
      send(res, 404, "text/plain", "no such view");
      return;
    }
    const csp = meta["csp"] as JsonObject | undefined;
    const allow = allowAttribute(meta["permissions"] as JsonObject | undefined);
    res.setHeader("content-security-policy", sandboxCsp(csp));
    send(res, 200, "text/html; charset=utf-8", sandboxPage(`http://127.0.0.1:${this.hostPort}`, allow));
  }

  private async onHost(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", `http://127.0.0.1:${this.hostPort}`);
    if (req.headers.host !== `127.0.0.1:${this.hostPort}`) return send(res, 403, "text/plain", "forbidden");
    if (req.method === "GET") return this.onPage(url, res);
    if (req.method !== "POST" || req.headers["x-indusr-token"] !== this.hostToken)
      return send(res, 403, "text/plain", "forbidden");
    if (!(req.headers["content-type"] ?? "").startsWith("application/json"))
      return send(res, 415, "text/plain", "json only");
    try {
      const body = await readJson(req);
      const result = await this.answer(url.pathname, body);
      send(res, 200, "application/json", JSON.stringify({ result }));
    } catch (error) {
      send(res, 200, "application/json", JSON.stringify({ error: (error as Error).message }));
    }
  }

  private onPage(url: URL, res: http.ServerResponse): void {
    if (url.searchParams.get("t") !== this.hostToken) return send(res, 403, "text/plain", "forbidden");
    if (url.pathname === "/app-host.js") {
      const file = fileURLToPath(new URL("./app-host.js", import.meta.url));
      return send(res, 200, "text/javascript; charset=utf-8", fs.readFileSync(file, "utf8"));
    }
    const viewId = /^\/app\/([\w-]+)$/.exec(url.pathname)?.[1];
    if (viewId === undefined) return send(res, 404, "text/plain", "not found");
    const sandboxUrl = `http://127.0.0.1:${this.sandboxPort}/sandbox/${viewId}?t=${this.sandboxToken}`;
    res.setHeader(
      "content-security-policy",
      `default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; connect-src 'self'; frame-src http://127.0.0.1:${this.sandboxPort}`,
    );
    send(
      res,
      200,
      "text/html; charset=utf-8",
      hostPage({ viewId, token: this.hostToken, sandboxUrl, version: this.version }),
    );
  }

  private async answer(path: string, body: JsonObject): Promise<JsonObject> {
    const viewId = typeof body["viewId"] === "string" ? body["viewId"] : "";
    if (path === "/api/view") {
      const view = await this.requests.view(viewId);
      if (view === undefined) throw new Error(`no app view ${viewId}`);
      return view;
    }
    if (path === "/api/call" && typeof body["name"] === "string") {
      const args = body["arguments"];
      const input = typeof args === "object" && args !== null && !Array.isArray(args) ? args : {};
      return this.requests.call(viewId, body["name"], input);
    }
    if (path === "/api/read" && typeof body["uri"] === "string") return this.requests.read(viewId, body["uri"]);
    throw new Error(`unknown request ${path}`);
  }
}
