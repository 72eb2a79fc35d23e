/**
 * Settings the built-ins read at build time. They ride on the deck context as
 * an additive `options` field, so a plain contract `DeckContext` still works
 * and every setting has a default (and an environment fallback).
 */
import type { DeckContext, DeckFramework } from "./vocabulary";
import type { WebSearchBackend } from "./tools/websearch-backends";

export type SearchEngine = "auto" | "ripgrep" | "js";

export interface DeckOptions {
  /**
   * Engine behind `grep` and `find`: ripgrep when it is on PATH (`auto`, the
   * default) or the pure-JS walker. Falls back to `INDUS_SEARCH_ENGINE`.
   */
  readonly searchEngine?: SearchEngine;
  /** The `websearch` backend; else a SearXNG endpoint from `searxngUrl` or `INDUS_SEARXNG_URL`. */
  readonly webSearch?: WebSearchBackend;
  readonly searxngUrl?: string;
  /** Brave Search API key (else `BRAVE_API_KEY`). */
  readonly braveApiKey?: string;
  /** Tavily API key (else `TAVILY_API_KEY`). */
  readonly tavilyApiKey?: string;
  /** Default `bash` deadline (2 minutes unless set). */
  readonly bashTimeoutMs?: number;
  /** `webfetch` limits. */
  readonly fetch?: { readonly maxBytes?: number; readonly timeoutMs?: number; readonly maxRedirects?: number };
  /** Where the `INDUS_*` fallbacks are read; `process.env` unless injected. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** A deck context that also carries built-in settings. */
export interface DeckSetup extends DeckContext {
  readonly options?: DeckOptions;
}

export function optionsOf(ctx: DeckContext): DeckOptions {
  return (ctx as DeckSetup).options ?? {};
}

export function envOf(options: DeckOptions): Readonly<Record<string, string | undefined>> {
  return options.env ?? process.env;
}

/** A deck context for `cwd`, with optional handles and settings. */
export function deckContext(cwd: string, init: { framework?: DeckFramework; options?: DeckOptions } = {}): DeckSetup {
  return { cwd, framework: init.framework ?? {}, ...(init.options === undefined ? {} : { options: init.options }) };
}
