/**
 * The one line a person reads about a withheld definition: what it is, why
 * it is held back, and the command that lets it through.
 */
import type { DefinitionFinding, DefinitionKind, WithheldReason } from "@indus/contract";

const NOUNS: Readonly<Record<DefinitionKind, string>> = {
  tool: "tool",
  prompt: "prompt",
  resource: "resource",
  "resource-template": "resource template",
};

/** `tool "echo" of server "fx"` */
export function definitionLabel(server: string, kind: DefinitionKind, name: string): string {
  return `${NOUNS[kind]} "${name}" of server "${server}"`;
}

/** The command that approves it: one tool alone, or the whole server. */
export function approveCommand(server: string, kind: DefinitionKind, name: string): string {
  return kind === "tool" ? `indusr mcp approve ${server} --tool ${name}` : `indusr mcp approve ${server}`;
}

/** `description: 2 zero-width or invisible characters (U+200B)` */
export function findingText(finding: DefinitionFinding): string {
  return `${finding.at === "" ? "" : `${finding.at}: `}${finding.detail}`;
}

export interface WithheldFacts {
  readonly server: string;
  readonly kind: DefinitionKind;
  readonly name: string;
  readonly reason: WithheldReason;
  readonly fields?: readonly string[];
  readonly findings?: readonly DefinitionFinding[];
}

/** A name a pinned server added, pinned at first sight: where its pin shows and how it would be withdrawn. */
export function addedMessage(facts: { server: string; kind: DefinitionKind; name: string }): string {
  return `${definitionLabel(facts.server, facts.kind, facts.name)} was added since pinned: pinned at first sight (\`indusr mcp pins ${facts.server}\` shows it; a later change to it is withheld)`;
}

export function withheldMessage(facts: WithheldFacts): string {
  const label = definitionLabel(facts.server, facts.kind, facts.name);
  const approve = approveCommand(facts.server, facts.kind, facts.name);
  switch (facts.reason) {
    case "changed":
      return `${label} changed since it was pinned (${(facts.fields ?? []).join(", ")}): withheld until you approve it (\`${approve}\`)`;
    case "new": {
      const first = facts.findings?.[0];
      const why = first ? `inspection flagged it: ${findingText(first)}` : `trust is "strict"`;
      return `${label} was added since the server was pinned and ${why}: withheld until you approve it (\`${approve}\`)`;
    }
    case "unpinned":
      if (facts.fields?.includes("ui"))
        return `${label} is presented by no pinned tool or resource of the server: its body is withheld (a host shows a ui:// body only for a tool or resource that presents it; \`indusr mcp pins ${facts.server}\` lists them)`;
      return `${label} is not pinned and this process never pins (a stateless replica): approve it where the configuration is written (\`indusr mcp approve ${facts.server}\`) and ship the lock file`;
    case "flagged": {
      const first = facts.findings?.[0];
      return `${label} is refused under trust "strict": ${first ? findingText(first) : "inspection flagged it"}`;
    }
  }
}
