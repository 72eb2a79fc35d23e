/** `indusr tools`: the deck as the agent sees it. */
import type { ToolDescriptor } from "@indus/contract";
import type { BootedDeck } from "../boot/boot-types";
import { listingOnlyDelegate } from "../agent/sub-agent-roster";
import { loadSettings } from "../agent/settings";
import { cliEnv } from "../cli-env";
import { EXIT } from "../exit";
import { DEFAULT_BUDGET_SHARE, defaultContextWindow } from "../tool-search/deferral";
import { withDeck, type DeckFlags } from "./shared";

function firstLine(text: string): string {
  return (text.split("\n").find((line) => line.trim() !== "") ?? "").trim();
}

export function table(rows: readonly (readonly string[])[], maxLast = 80): string {
  const widths = rows[0]!.map((_, col) =>
    col === rows[0]!.length - 1 ? 0 : Math.max(...rows.map((row) => row[col]!.length)),
  );
  return rows
    .map((row) =>
      row
        .map((cell, col) =>
          col === row.length - 1
            ? cell.length > maxLast
              ? `${cell.slice(0, maxLast - 1)}…`
              : cell
            : cell.padEnd(widths[col]!),
        )
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/** What the agent's tool list leaves out, and why: deferred servers and cards nothing can serve. */
function omissionLines(deck: BootedDeck): string[] {
  const lines: string[] = [];
  const deferred = deck.deferred;
  if (deferred && deferred.servers.size > 0) {
    const why = [...deferred.servers].map(
      ([id, reason]) => `${id} (${reason === "config" ? '"defer": true' : "budget"})`,
    );
    lines.push(
      `deferred MCP servers, reached through saas-action discover/execute: ${why.join(", ")}`,
      `MCP tool definitions: ~${deferred.tokensBefore} tokens, ~${deferred.tokensAfter} sent to the model${deferred.budgetTokens !== undefined ? ` (budget ${deferred.budgetTokens}, --mcp-tool-budget)` : ""}`,
    );
  }
  for (const missing of deck.unoffered ?? []) lines.push(`not offered: ${missing.tool}: ${missing.reason}`);
  if (deck.box.descriptors().some((d) => d.name === "websearch"))
    lines.push(
      deck.webSearch
        ? `websearch: ${deck.webSearch.name} (from ${deck.webSearch.source})`
        : "websearch: answers once you set BRAVE_API_KEY or TAVILY_API_KEY (or braveApiKey / tavilyApiKey in ~/.indusvx/settings.json), or INDUS_SEARXNG_URL to a SearXNG instance",
    );
  return lines;
}

/** The user's `websearch` settings, so the listing names the backend the agent would use. */
function webSearchSettings(flags: DeckFlags) {
  const cli = cliEnv(flags);
  const { settings } = loadSettings(cli.home, cli.cwd);
  return {
    ...(settings.searxngUrl !== undefined ? { searxngUrl: settings.searxngUrl } : {}),
    ...(settings.braveApiKey !== undefined ? { braveApiKey: settings.braveApiKey } : {}),
    ...(settings.tavilyApiKey !== undefined ? { tavilyApiKey: settings.tavilyApiKey } : {}),
  };
}

/** Every tool as `--json` lists it: the model's tools, then the deferred ones marked `deferred: true`. */
function jsonRows(deck: BootedDeck): unknown[] {
  const row = (d: ToolDescriptor, deferred: boolean) => ({
    ...d,
    origin: deck.origin(d.name),
    readOnly: d.annotations?.readOnlyHint === true,
    deferred,
  });
  return [
    ...deck.box.descriptors().map((d) => row(d, false)),
    ...(deck.deferred?.descriptors() ?? []).map((d) => row(d, true)),
  ];
}

function printTable(deck: BootedDeck): void {
  const descriptors = deck.box.descriptors();
  const deferred = deck.deferred?.descriptors() ?? [];
  const line = (d: ToolDescriptor, origin: string) => [
    d.name,
    origin,
    d.annotations?.readOnlyHint === true ? "yes" : "no",
    firstLine(d.description),
  ];
  const rows = [["NAME", "ORIGIN", "READ-ONLY", "DESCRIPTION"]];
  for (const d of descriptors) rows.push(line(d, deck.origin(d.name)));
  // Not in the model's list, but `call` and saas-action's execute run them.
  for (const d of deferred) rows.push(line(d, "deferred"));
  process.stdout.write(`${table(rows)}\n`);
  const ready = deck.servers.filter((s) => s.phase === "ready").length;
  const more = deferred.length > 0 ? ` (+${deferred.length} deferred)` : "";
  const servers = deck.servers.length > 0 ? ` (${ready} of ${deck.servers.length} MCP servers ready)` : "";
  process.stdout.write(`\n${descriptors.length} tools${more}${servers}\n`);
  for (const text of omissionLines(deck)) process.stdout.write(`${text}\n`);
}

export async function toolsCommand(flags: DeckFlags): Promise<number> {
  const budget = flags.mcpToolBudget ?? Math.floor(defaultContextWindow("openai") * DEFAULT_BUDGET_SHARE);
  // The agent always has a sub-agent runner, so list `task` as it would see it.
  return withDeck(
    { ...flags, mcpToolBudget: budget },
    "all",
    (deck) => {
      if (flags.json) process.stdout.write(`${JSON.stringify(jsonRows(deck), null, 2)}\n`);
      else printTable(deck);
      return Promise.resolve(EXIT.ok);
    },
    { delegate: listingOnlyDelegate, webSearch: webSearchSettings(flags) },
  );
}
