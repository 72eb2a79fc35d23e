/**
 * A full-text index over MCP tool definitions, so the model can find a tool it
 * is not shown by what it does. minisearch ranks with BM25 over the tool's
 * name (split at `__`, `_`, `-` and case changes) and its description.
 */
import MiniSearch from "minisearch";
import type { JsonSchema } from "@indus/contract";

export interface IndexedTool {
  /** The qualified `<server>__<tool>` name `execute` takes. */
  readonly name: string;
  readonly server: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
}

interface Document {
  readonly id: string;
  readonly words: string;
  readonly server: string;
  readonly description: string;
}

/** `everything__getTinyImage` -> `everything get tiny image`. */
function nameWords(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_\-.]+/g, " ")
    .toLowerCase();
}

export class ToolIndex {
  private readonly search = new MiniSearch<Document>({
    fields: ["words", "description", "server"],
    storeFields: [],
    searchOptions: { boost: { words: 3, server: 2 }, prefix: true, fuzzy: 0.2, combineWith: "OR" },
  });
  private readonly byName = new Map<string, IndexedTool>();

  constructor(tools: readonly IndexedTool[]) {
    const docs: Document[] = [];
    for (const tool of tools) {
      if (this.byName.has(tool.name)) continue;
      this.byName.set(tool.name, tool);
      docs.push({ id: tool.name, words: nameWords(tool.name), server: tool.server, description: tool.description });
    }
    this.search.addAll(docs);
  }

  get size(): number {
    return this.byName.size;
  }

  get(name: string): IndexedTool | undefined {
    return this.byName.get(name);
  }

  /** Best matches first; no query lists tools in index order. `server` keeps only that server's tools. */
  find(query: string | undefined, options: { server?: string; limit: number }): IndexedTool[] {
    const server = options.server?.toLowerCase();
    const keep = (tool: IndexedTool) => server === undefined || tool.server.toLowerCase() === server;
    const q = query?.trim() ?? "";
    if (q.length === 0) return [...this.byName.values()].filter(keep).slice(0, options.limit);
    const exact = this.byName.get(q);
    const ranked = this.search
      .search(q)
      .map((hit) => this.byName.get(String(hit.id))!)
      .filter((tool) => tool !== exact);
    return [...(exact ? [exact] : []), ...ranked].filter(keep).slice(0, options.limit);
  }
}
