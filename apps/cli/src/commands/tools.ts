/** `indusr tools`: the deck as the agent sees it. */
import { EXIT } from "../program";
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

export async function toolsCommand(flags: DeckFlags): Promise<number> {
  return withDeck(flags, "all", async (deck) => {
    const descriptors = deck.box.descriptors();
    if (flags.json) {
      const out = descriptors.map((d) => ({
        ...d,
        origin: deck.origin(d.name),
        readOnly: d.annotations?.readOnlyHint === true,
      }));
      process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
      return EXIT.ok;
    }
    const rows = [["NAME", "ORIGIN", "READ-ONLY", "DESCRIPTION"]];
    for (const d of descriptors) {
      rows.push([
        d.name,
        deck.origin(d.name),
        d.annotations?.readOnlyHint === true ? "yes" : "no",
        firstLine(d.description),
      ]);
    }
    process.stdout.write(`${table(rows)}\n`);
    const servers = deck.servers.filter((s) => s.phase === "ready").length;
    process.stdout.write(
      `\n${descriptors.length} tools${deck.servers.length > 0 ? ` (${servers} of ${deck.servers.length} MCP servers ready)` : ""}\n`,
    );
    return EXIT.ok;
  });
}
