/**
 * Keyed web search APIs for `websearch`: Brave Search and Tavily. Each is a
 * `WebSearchBackend`; the base URL can be pointed elsewhere (a proxy, or a
 * local fake in tests).
 */
import { readCapped } from "./http-body";
import type { WebSearchBackend, WebSearchHit } from "./websearch-backends";

const BODY_CAP = 4 * 1024 * 1024;

interface KeyedInit {
  readonly baseUrl?: string;
  readonly timeoutMs?: number;
}

async function readJson(response: Response, service: string): Promise<unknown> {
  const { bytes } = await readCapped(response, BODY_CAP);
  if (!response.ok) {
    const hint = response.status === 401 || response.status === 403 ? " (is the API key right?)" : "";
    throw new Error(`${service} answered ${response.status} ${response.statusText}${hint}`);
  }
  try {
    return JSON.parse(Buffer.from(bytes).toString("utf8"));
  } catch {
    throw new Error(`${service} did not return JSON`);
  }
}

function hitsOf(rows: unknown, snippetKey: string, limit: number): WebSearchHit[] {
  const hits: WebSearchHit[] = [];
  for (const row of Array.isArray(rows) ? (rows as Record<string, unknown>[]) : []) {
    if (typeof row?.url !== "string") continue;
    const title = typeof row.title === "string" && row.title.trim() !== "" ? row.title.trim() : row.url;
    const raw = row[snippetKey];
    const snippet = typeof raw === "string" ? raw.trim() : "";
    hits.push({ title, url: row.url, ...(snippet !== "" ? { snippet } : {}) });
    if (hits.length >= limit) break;
  }
  return hits;
}

const signalFor = (signal: AbortSignal, init: KeyedInit) =>
  AbortSignal.any([signal, AbortSignal.timeout(init.timeoutMs ?? 20_000)]);

/** Brave Search's web search API (`X-Subscription-Token`). */
export function braveBackend(apiKey: string, init: KeyedInit = {}): WebSearchBackend {
  const base = (init.baseUrl ?? "https://api.search.brave.com").replace(/\/$/, "");
  return {
    name: "brave",
    async search(query, { limit, signal }) {
      const url = new URL(`${base}/res/v1/web/search`);
      url.searchParams.set("q", query);
      url.searchParams.set("count", String(limit));
      const response = await fetch(url, {
        signal: signalFor(signal, init),
        headers: { accept: "application/json", "x-subscription-token": apiKey },
      });
      const body = (await readJson(response, "Brave Search")) as { web?: { results?: unknown } };
      return hitsOf(body.web?.results, "description", limit);
    },
  };
}

/** Tavily's search API (bearer key). */
export function tavilyBackend(apiKey: string, init: KeyedInit = {}): WebSearchBackend {
  const base = (init.baseUrl ?? "https://api.tavily.com").replace(/\/$/, "");
  return {
    name: "tavily",
    async search(query, { limit, signal }) {
      const response = await fetch(`${base}/search`, {
        method: "POST",
        signal: signalFor(signal, init),
        headers: { accept: "application/json", "content-type": "application/json", authorization: `Bearer ${apiKey}` },
        body: JSON.stringify({ query, max_results: limit }),
      });
      const body = (await readJson(response, "Tavily")) as { results?: unknown };
      return hitsOf(body.results, "content", limit);
    },
  };
}
