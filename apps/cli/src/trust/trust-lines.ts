/**
 * A server's standing with the trust gate, as lines for people: what is
 * withheld ("changed since pinned", new, refused) with the command that
 * approves it, what inspection flagged on what it let through, and what was
 * "added since pinned" (pinned at first sight). The same
 * words in `mcp status`, `doctor`, a one-shot command's warnings and the REPL.
 */
import type { WithheldDefinition } from "@indus/contract";
import { definitionLabel, findingText } from "@indus/deck/trust";
import type { ServerTrust, TrustSession, UnshippedPins } from "./trust-session";

/** How many things about this server's definitions need the user's attention. */
export function trustProblems(trust: ServerTrust | undefined): number {
  if (trust === undefined) return 0;
  return trust.withheld.length + trust.flagged.length + ((trust.instructions?.length ?? 0) > 0 ? 1 : 0);
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

/** One line per finding on the server's instructions, saying whether "strict" withheld them. */
export function instructionLines(server: string, trust: ServerTrust): string[] {
  const standing = trust.mode === "strict" ? 'withheld from the model under trust "strict"' : "flagged";
  return (trust.instructions ?? []).map(
    (finding) =>
      `the instructions of MCP server "${server}" are ${standing} (${finding.rule}): ${findingText(finding)}`,
  );
}

/** Everything to say about one server's definitions; empty when all is well. */
export function trustLines(server: string, trust: ServerTrust | undefined): string[] {
  if (trust === undefined) return [];
  return [
    ...withheldLines(trust.withheld),
    ...flaggedLines(server, trust),
    ...instructionLines(server, trust),
    ...trust.added.map((a) => a.message),
  ];
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
    ...((trust.instructions?.length ?? 0) > 0 ? ["instructions flagged"] : []),
  ];
  return parts.join(", ");
}

/** A stateless replica started without pins for a server: what it means and the command that writes them. */
export function unshippedLine(unshipped: UnshippedPins): string {
  return `MCP server "${unshipped.server}" has no pins in ${unshipped.lockFile}, and a --stateless replica never pins on its own: everything it lists is withheld until the lock file ships beside the config (create it with \`indusr mcp approve ${unshipped.server} --mcp ${unshipped.config}\`)`;
}

/**
 * Say each definition the gate withholds or pins as added from now on (a
 * `list_changed` mid-run, a server settling late), one line each as it
 * happens: what the start-up warnings could not know yet. Returns a stop.
 */
export function announceTrust(
  trust: Pick<TrustSession, "onWithheld" | "onAdded"> | undefined,
  say: (level: "warning" | "note", line: string) => void,
): () => void {
  const offWithheld = trust?.onWithheld((withheld) => say("warning", withheld.message));
  const offAdded = trust?.onAdded((added) => say("note", added.message));
  return () => {
    offWithheld?.();
    offAdded?.();
  };
}
