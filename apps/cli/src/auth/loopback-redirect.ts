/**
 * The sign-in's redirect listener: a one-shot HTTP server on 127.0.0.1 (never
 * a public interface) that takes the authorization server's redirect to
 * `/callback`, answers the browser with a short page, and hands the query
 * (`code`, `state`, `iss`, or `error`) to the waiting sign-in.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface LoopbackRedirect {
  /** `http://127.0.0.1:<port>/callback`: what the authorization server redirects to. */
  readonly url: string;
  /** The first redirect's query. */
  readonly params: Promise<URLSearchParams>;
  close(): Promise<void>;
}

const PAGE = (title: string, body: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif;margin:3em"><h1>${title}</h1><p>${body}</p></body>`;

/** Listen on `port` (0 picks a free one). Rejects when the port is taken. */
export async function listenForRedirect(port = 0): Promise<LoopbackRedirect> {
  let deliver!: (params: URLSearchParams) => void;
  const params = new Promise<URLSearchParams>((resolve) => {
    deliver = resolve;
  });
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== "/callback") {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
      return;
    }
    const failed = url.searchParams.get("error");
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
    res.end(
      failed
        ? PAGE("Sign-in failed", "The authorization server refused the sign-in. Go back to the terminal for details.")
        : PAGE("Signed in", "indusr has your sign-in. You can close this tab and go back to the terminal."),
    );
    deliver(url.searchParams);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${actual}/callback`,
    params,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
