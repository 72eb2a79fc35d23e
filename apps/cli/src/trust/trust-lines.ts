/**
 * A server's standing with the trust gate, as lines for people: what is
 * withheld ("changed since pinned", new, refused) with the command that
 * approves it, what inspection flagged on what it let through, and what was
 * "added since pinned" (pinned at first sight). The same
 * words in `mcp status`, `doctor`, a one-shot command's warnings and the REPL.
 */
import type { WithheldDefinition } from "@indus/contract";
import { definitionLabel, findingText } from "@indus/deck/trust";
import type { ServerTrust, UnshippedPins } from "./trust-session";

/** How many things about this server's definitions need the user's attention. */
export function trustProblems(trust: ServerTrust | undefined): number {
  return trust === undefined ? 0 : trust.withheld.length + trust.flagged.length;
}

/** One line per withheld definition (its message says what changed and how to approve it). */
export function withheldLines(withheld: readonly WithheldDefinition[]): string[] {
  return withheld.map((w) => w.message);
}

/** One line per finding on a definition that was let through. */
export function flaggedLines(server: string, trust: ServerTrust): string[] {
  return trust.flagged.flatMap((flagged) =>
    flagged.findings.map(
      (finding) =>
        `${definitionLabel(server, flagged.kind, flagged.name)} is flagged (${finding.rule}): ${findingText(finding)}`,
    ),
  );
}

/** Everything to say about one server's definitions; empty when all is well. */
export function trustLines(server: string, trust: ServerTrust | undefined): string[] {
  if (trust === undefined) return [];
  return [...withheldLines(trust.withheld), ...flaggedLines(server, trust), ...trust.added.map((a) => a.message)];
}

/** `2 changed since pinned, 1 flagged` for a table cell; "" when nothing. */
export function trustCell(trust: ServerTrust | undefined): string {
  if (trust === undefined) return "";
  const changed = trust.withheld.filter((w) => w.reason === "changed").length;
  const other = trust.withheld.length - changed;
  const parts = [
    ...(changed > 0 ? [`${changed} changed since pinned`] : []),
    ...(other > 0 ? [`${other} withheld`] : []),
    ...(trust.flagged.length > 0 ? [`${trust.flagged.length} flagged`] : []),
  ];
  return parts.join(", ");
}

/** A stateless replica started without pins for a server: what it means and the command that writes them. */
export function unshippedLine(unshipped: UnshippedPins): string {
  return `MCP server "${unshipped.server}" has no pins in ${unshipped.lockFile}, and a --stateless replica never pins on its own: everything it lists is withheld until the lock file ships beside the config (create it with \`indusr mcp approve ${unshipped.server} --mcp ${unshipped.config}\`)`;
}
