/**
 * `websearch`: search the web through the configured backend: a backend in the
 * deck options, else SearXNG at `searxngUrl` / `INDUS_SEARXNG_URL`, else Brave
 * Search with `braveApiKey` / `BRAVE_API_KEY`, else Tavily with
 * `tavilyApiKey` / `TAVILY_API_KEY`. With none configured the tool says so
 * plainly instead of guessing a public service.
 */
import type { Card, DeckContext } from "../vocabulary";
import { inputObject, optInt, reqString } from "../args";
import { defineCard, objectSchema } from "../card";
import { envOf, optionsOf } from "../options";
import { errorResult, textResult } from "../results";
import { searxngBackend, type WebSearchBackend } from "./websearch-backends";
import { braveBackend, tavilyBackend } from "./websearch-keyed";

export const NO_SEARCH_BACKEND =
  "websearch: no search backend is configured. Set BRAVE_API_KEY (Brave Search) or TAVILY_API_KEY (Tavily), or INDUS_SEARXNG_URL to a SearXNG instance with the JSON format enabled (for example http://127.0.0.1:8888), or give the deck a webSearch backend.";

/** Which backend `websearch` uses and where its setting came from, for listings. */
export interface SearchBackendChoice {
  readonly backend: WebSearchBackend;
  readonly source: string;
}

export function chooseSearchBackend(deck: DeckContext): SearchBackendChoice | undefined {
  const options = optionsOf(deck);
  const env = envOf(options);
  if (options.webSearch) return { backend: options.webSearch, source: "the deck's webSearch option" };
  const searxng = options.searxngUrl ?? env.INDUS_SEARXNG_URL;
  if (searxng)
    return { backend: searxngBackend(searxng), source: options.searxngUrl ? "settings" : "INDUS_SEARXNG_URL" };
  const brave = options.braveApiKey ?? env.BRAVE_API_KEY;
  if (brave)
    return {
      backend: braveBackend(brave, env.INDUS_BRAVE_URL ? { baseUrl: env.INDUS_BRAVE_URL } : {}),
      source: options.braveApiKey ? "settings" : "BRAVE_API_KEY",
    };
  const tavily = options.tavilyApiKey ?? env.TAVILY_API_KEY;
  if (tavily)
    return {
      backend: tavilyBackend(tavily, env.INDUS_TAVILY_URL ? { baseUrl: env.INDUS_TAVILY_URL } : {}),
      source: options.tavilyApiKey ? "settings" : "TAVILY_API_KEY",
    };
  return undefined;
}

export function resolveSearchBackend(deck: DeckContext): WebSearchBackend | undefined {
  return chooseSearchBackend(deck)?.backend;
}

export function websearchTool(deck: DeckContext): Card {
  return defineCard({
    name: "websearch",
    label: "Web search",
    readOnly: true,
    description:
      "Search the web and return a numbered list of results (title, URL, snippet). Use webfetch to read a result. Requires a configured search backend.",
    parameters: objectSchema(
      {
        query: { type: "string", description: "What to search for." },
        limit: { type: "integer", minimum: 1, maximum: 20, description: "Maximum results (default 8)." },
      },
      ["query"],
    ),
    async run(input, ctx) {
      const args = inputObject(input);
      const query = reqString(args, "query").trim();
      const limit = optInt(args, ["limit", "max_results"], { min: 1, max: 20 }) ?? 8;
      const backend = resolveSearchBackend(deck);
      if (!backend) return errorResult(NO_SEARCH_BACKEND);
      const hits = await backend.search(query, { limit, signal: ctx.signal });
      if (hits.length === 0) return textResult(`No results for "${query}" (${backend.name}).`);
      const lines = [`Results for "${query}" (${backend.name}):`];
      hits.slice(0, limit).forEach((hit, i) => {
        lines.push("", `${i + 1}. ${hit.title}`, `   ${hit.url}`);
        if (hit.snippet) lines.push(`   ${hit.snippet.replace(/\s+/g, " ").slice(0, 400)}`);
      });
      return textResult(lines.join("\n"));
    },
  });
}
