/**
 * The keyed `websearch` backends against local fakes of their APIs: Brave
 * Search (GET, `X-Subscription-Token`) and Tavily (POST JSON, bearer key),
 * chosen from the environment or the deck options.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { chooseSearchBackend, deckContext } from "@indus/deck";
import { deckAt, tempDir } from "./helpers";

let server: http.Server;
let base = "";
const seen: { path: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://x");
      seen.push({ path: `${url.pathname}${url.search}`, headers: req.headers, body });
      res.setHeader("content-type", "application/json");
      if (url.pathname === "/res/v1/web/search") {
        if (req.headers["x-subscription-token"] !== "brave-key") return void res.writeHead(401).end("{}");
        res.end(
          JSON.stringify({ web: { results: [{ title: "Brave hit", url: "https://b/1", description: "from brave" }] } }),
        );
      } else if (url.pathname === "/search" && req.method === "POST") {
        if (req.headers.authorization !== "Bearer tvly-key") return void res.writeHead(401).end("{}");
        res.end(JSON.stringify({ results: [{ title: "Tavily hit", url: "https://t/1", content: "from tavily" }] }));
      } else res.writeHead(404).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

test("Brave Search from BRAVE_API_KEY: the key in X-Subscription-Token, results numbered", async () => {
  const { call } = deckAt(tempDir(), { options: { env: { BRAVE_API_KEY: "brave-key", INDUS_BRAVE_URL: base } } });
  const out = await call("websearch", { query: "mcp", limit: 3 });
  expect(out.isError).toBe(false);
  expect(out.text).toBe('Results for "mcp" (brave):\n\n1. Brave hit\n   https://b/1\n   from brave');
  expect(seen.at(-1)!.path).toBe("/res/v1/web/search?q=mcp&count=3");
});

test("Tavily from the deck options: a bearer key and a JSON body; a refused key is an error naming the service", async () => {
  const { call } = deckAt(tempDir(), { options: { tavilyApiKey: "tvly-key", env: { INDUS_TAVILY_URL: base } } });
  const out = await call("websearch", { query: "agents", limit: 2 });
  expect(out.text).toBe('Results for "agents" (tavily):\n\n1. Tavily hit\n   https://t/1\n   from tavily');
  expect(JSON.parse(seen.at(-1)!.body)).toEqual({ query: "agents", max_results: 2 });
  const refused = deckAt(tempDir(), { options: { env: { TAVILY_API_KEY: "wrong", INDUS_TAVILY_URL: base } } });
  const bad = await refused.call("websearch", { query: "x" });
  expect(bad.isError).toBe(true);
  expect(bad.text).toMatch(/Tavily answered 401 .*is the API key right/);
});

test("the choice says where it came from; SearXNG wins over keys, Brave over Tavily", () => {
  const env = { BRAVE_API_KEY: "b", TAVILY_API_KEY: "t" };
  expect(chooseSearchBackend(deckContext("/", { options: { env } }))).toMatchObject({
    backend: { name: "brave" },
    source: "BRAVE_API_KEY",
  });
  expect(
    chooseSearchBackend(deckContext("/", { options: { env: { ...env, INDUS_SEARXNG_URL: base } } }))?.backend.name,
  ).toBe("searxng");
  expect(chooseSearchBackend(deckContext("/", { options: { env: {} } }))).toBeUndefined();
});
