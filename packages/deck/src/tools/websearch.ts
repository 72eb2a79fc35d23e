/**
 * `websearch`: search the web through the configured backend: a backend in the
 * deck options, else SearXNG at `searxngUrl` / `INDUS_SEARXNG_URL`. With none
 * configured the tool says so plainly instead of guessing a public service.
 */
import type { Card, DeckContext } from "@indus/contract";
import { inputObject, optInt, reqString } from "../args";
import { defineCard, objectSchema } from "../card";
import { envOf, optionsOf } from "../options";
import { errorResult, textResult } from "../results";
import { searxngBackend, type WebSearchBackend } from "./websearch-backends";

export const NO_SEARCH_BACKEND =
  "websearch: no search backend is configured. Set INDUS_SEARXNG_URL to a SearXNG instance with the JSON format enabled (for example http://127.0.0.1:8888), or give the deck a webSearch backend.";

export function resolveSearchBackend(deck: DeckContext): WebSearchBackend | undefined {
  const options = optionsOf(deck);
  if (options.webSearch) return options.webSearch;
  const url = options.searxngUrl ?? envOf(options).INDUS_SEARXNG_URL;
  return url ? searxngBackend(url) : undefined;
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
