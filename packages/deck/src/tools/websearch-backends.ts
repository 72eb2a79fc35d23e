/**
 * Web search backends. The `websearch` tool is backend-agnostic; a backend is
 * anything with `search(query, {limit, signal})`. SearXNG's JSON API ships
 * here because it is self-hostable and keyless.
 */
import { readCapped } from "./http-body";

export interface WebSearchHit {
  readonly title: string;
  readonly url: string;
  readonly snippet?: string;
}

export interface WebSearchBackend {
  /** Shown with results, e.g. "searxng". */
  readonly name: string;
  search(
    query: string,
    options: { readonly limit: number; readonly signal: AbortSignal },
  ): Promise<readonly WebSearchHit[]>;
}

/** A SearXNG instance (its `search.formats` must include `json`). `baseUrl` may end in `/search`. */
export function searxngBackend(
  baseUrl: string,
  init: { timeoutMs?: number; headers?: Record<string, string> } = {},
): WebSearchBackend {
  const base = new URL(baseUrl);
  if (base.protocol !== "http:" && base.protocol !== "https:")
    throw new Error(`SearXNG URL must be http(s): ${baseUrl}`);
  const endpoint = new URL(
    base.pathname.replace(/\/?$/, "").endsWith("/search")
      ? base.href
      : new URL("search", base.href.endsWith("/") ? base.href : `${base.href}/`).href,
  );
  return {
    name: "searxng",
    async search(query, { limit, signal }) {
      const url = new URL(endpoint.href);
      url.searchParams.set("q", query);
      url.searchParams.set("format", "json");
      const response = await fetch(url, {
        signal: AbortSignal.any([signal, AbortSignal.timeout(init.timeoutMs ?? 20_000)]),
        headers: { accept: "application/json", ...init.headers },
      });
      const { bytes } = await readCapped(response, 4 * 1024 * 1024);
      if (!response.ok) {
        const hint =
          response.status === 403 ? " (is the json format enabled under search.formats in settings.yml?)" : "";
        throw new Error(`SearXNG at ${endpoint.origin} answered ${response.status} ${response.statusText}${hint}`);
      }
      let body: { results?: unknown };
      try {
        body = JSON.parse(Buffer.from(bytes).toString("utf8")) as { results?: unknown };
      } catch {
        throw new Error(`SearXNG at ${endpoint.origin} did not return JSON`);
      }
      const results = Array.isArray(body.results) ? body.results : [];
      const hits: WebSearchHit[] = [];
      for (const r of results as { title?: unknown; url?: unknown; content?: unknown }[]) {
        if (typeof r?.url !== "string") continue;
        hits.push({
          title: typeof r.title === "string" && r.title.trim() !== "" ? r.title.trim() : r.url,
          url: r.url,
          ...(typeof r.content === "string" && r.content.trim() !== "" ? { snippet: r.content.trim() } : {}),
        });
        if (hits.length >= limit) break;
      }
      return hits;
    },
  };
}
