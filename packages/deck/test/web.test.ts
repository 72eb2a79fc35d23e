import http from "node:http";
import type { AddressInfo } from "node:net";
import { searxngBackend } from "@indus/deck";
import { deckAt, tempDir } from "./helpers";

let server: http.Server;
let base = "";
const searches: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    switch (url.pathname) {
      case "/page":
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end(
          "<html><head><title>Test &amp; Page</title><style>body{color:red}</style><script>alert(1)</script></head>" +
            '<body><h1>Hello</h1><p>Some <strong>bold</strong> text and a <a href="/x">link</a>.</p><ul><li>one</li><li>two</li></ul></body></html>',
        );
        return;
      case "/plain":
        res.writeHead(200, { "content-type": "text/plain" });
        res.end("just text");
        return;
      case "/redirect":
        res.writeHead(302, { location: "/plain" });
        res.end();
        return;
      case "/loop":
        res.writeHead(301, { location: "/loop" });
        res.end();
        return;
      case "/to-file":
        res.writeHead(302, { location: "file:///etc/passwd" });
        res.end();
        return;
      case "/big":
        res.writeHead(200, { "content-type": "text/plain" });
        res.end("z".repeat(300_000));
        return;
      case "/slow":
        res.writeHead(200, { "content-type": "text/plain" });
        res.write("start");
        setTimeout(() => res.end("late"), 10_000).unref();
        return;
      case "/missing":
        res.writeHead(404, { "content-type": "text/plain" });
        res.end("nothing here");
        return;
      case "/binary":
        res.writeHead(200, { "content-type": "application/octet-stream" });
        res.end(Buffer.from([0, 1, 2, 3]));
        return;
      case "/search":
        searches.push(url.search);
        if (url.searchParams.get("format") !== "json") {
          res.writeHead(403);
          res.end();
          return;
        }
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            query: url.searchParams.get("q"),
            results: [
              { title: "First hit", url: "https://example.com/1", content: "About the first   hit." },
              { title: "", url: "https://example.com/2" },
              { url: 42 },
              { title: "Third", url: "https://example.com/3", content: "third" },
            ],
          }),
        );
        return;
      case "/denied/search":
        res.writeHead(403);
        res.end();
        return;
      default:
        res.writeHead(500);
        res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("webfetch", () => {
  const { call } = deckAt(tempDir(), { options: { fetch: { maxBytes: 100_000, timeoutMs: 20_000 } } });

  it("converts HTML to Markdown, dropping scripts and styles, with the title", async () => {
    const out = await call("webfetch", { url: `${base}/page` });
    expect(out.isError).toBe(false);
    expect(out.text).toContain(`URL: ${base}/page`);
    expect(out.text).toContain("Status: 200 OK");
    expect(out.text).toContain("Title: Test & Page");
    expect(out.text).toContain("# Hello");
    expect(out.text).toContain("**bold**");
    expect(out.text).toContain("[link](/x)");
    expect(out.text).toMatch(/-\s+one/);
    expect(out.text).not.toContain("alert(1)");
    expect(out.text).not.toContain("color:red");
    const raw = await call("webfetch", { url: `${base}/page`, format: "html" });
    expect(raw.text).toContain("<h1>Hello</h1>");
    const text = await call("webfetch", { url: `${base}/page`, format: "text" });
    expect(text.text).toContain("Some bold text and a link.");
  });

  it("follows redirects, but a bounded number and only to http(s)", async () => {
    const out = await call("webfetch", { url: `${base}/redirect` });
    expect(out.text).toContain(`URL: ${base}/plain`);
    expect(out.text).toContain("just text");
    const loop = await call("webfetch", { url: `${base}/loop` });
    expect(loop.isError).toBe(true);
    expect(loop.text).toMatch(/more than 5 redirects/);
    const file = await call("webfetch", { url: `${base}/to-file` });
    expect(file.isError).toBe(true);
    expect(file.text).toMatch(/only http\(s\) is followed/);
  });

  it("refuses non-http URLs and reports unreachable hosts", async () => {
    expect((await call("webfetch", { url: "file:///etc/passwd" })).text).toMatch(/only http:\/\/ and https:\/\//);
    expect((await call("webfetch", { url: "not a url" })).text).toMatch(/not a valid URL/);
    const closed = await call("webfetch", { url: "http://127.0.0.1:1/" });
    expect(closed.isError).toBe(true);
    expect(closed.text).toMatch(/could not fetch/);
  });

  it("caps the body size and the time", async () => {
    const big = await call("webfetch", { url: `${base}/big` });
    expect(big.text).toMatch(/the body was cut at 97.7 KiB/);
    const slow = await call("webfetch", { url: `${base}/slow`, timeout: 1_000 });
    expect(slow.isError).toBe(true);
    expect(slow.text).toMatch(/did not finish within 1000ms/);
  });

  it("marks HTTP errors and binary bodies as errors, still showing the status", async () => {
    const missing = await call("webfetch", { url: `${base}/missing` });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain("Status: 404 Not Found");
    expect(missing.text).toContain("nothing here");
    const binary = await call("webfetch", { url: `${base}/binary` });
    expect(binary.isError).toBe(true);
    expect(binary.text).toMatch(/binary content, 4 B/);
  });
});

describe("websearch", () => {
  it("says clearly when no backend is configured", async () => {
    const { call } = deckAt(tempDir(), { options: { env: {} } });
    const out = await call("websearch", { query: "anything" });
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(
      /no search backend is configured. Set BRAVE_API_KEY .* or TAVILY_API_KEY .*INDUS_SEARXNG_URL/,
    );
  });

  it("queries a SearXNG JSON endpoint from INDUS_SEARXNG_URL", async () => {
    const { call } = deckAt(tempDir(), { options: { env: { INDUS_SEARXNG_URL: base } } });
    const out = await call("websearch", { query: "mcp servers", limit: 2 });
    expect(out.isError).toBe(false);
    expect(out.text).toBe(
      'Results for "mcp servers" (searxng):\n\n1. First hit\n   https://example.com/1\n   About the first hit.\n\n2. https://example.com/2\n   https://example.com/2',
    );
    expect(searches.at(-1)).toContain("q=mcp+servers");
    expect(searches.at(-1)).toContain("format=json");
  });

  it("takes a backend from the deck options, and reports backend failures", async () => {
    const { call } = deckAt(tempDir(), { options: { searxngUrl: `${base}/denied/search`, env: {} } });
    const out = await call("websearch", { query: "x" });
    expect(out.isError).toBe(true);
    expect(out.text).toMatch(/answered 403 Forbidden \(is the json format enabled/);
    const custom = deckAt(tempDir(), {
      options: { webSearch: { name: "fake", search: async (q) => [{ title: `about ${q}`, url: "https://f/1" }] } },
    });
    expect((await custom.call("websearch", { query: "cats" })).text).toContain("1. about cats");
    expect(searxngBackend(`${base}/`).name).toBe("searxng");
  });
});
