/**
 * The trust gate's vocabulary: what a mounted server's definitions are held
 * against before any client sees them. A definition (tool, prompt, resource,
 * resource template) is pinned when first seen; one that changes is withheld
 * until the user approves it (a name added later is pinned at first sight
 * under `trust: "pin"` unless inspection flags it, withheld under `strict`).
 * The gate itself lives with the host (pins are its files); the fleet asks it
 * through `DefinitionGate` at the mount, so the agent, one-shot commands and
 * the gateway all see the same verdicts.
 */
import { isRecord, type JsonObject, type JsonValue } from "./json";
import type { ServerConfig } from "./server-config";

/** The definitions a pin covers. A `ui://` resource's body is part of the resource (and of each tool that shows it). */
export const DEFINITION_KINDS = ["tool", "prompt", "resource", "resource-template"] as const;
export type DefinitionKind = (typeof DEFINITION_KINDS)[number];

/**
 * Why a definition is withheld: `changed` since it was pinned, `new` on a
 * server already pinned (under `strict`, or flagged by inspection), `unpinned` where nothing may be pinned (a stateless
 * replica runs only what its shipped lock file pins), `flagged` by inspection
 * on a `strict` server.
 */
export const WITHHELD_REASONS = ["changed", "new", "unpinned", "flagged"] as const;
export type WithheldReason = (typeof WITHHELD_REASONS)[number];

/**
 * What inspection looks for in a definition's text: invisible or
 * direction-changing characters, words that name another server's tools,
 * words that tell the model to set its instructions aside, and size.
 */
export const FINDING_RULES = ["hidden-characters", "cross-server", "override", "oversized"] as const;
export type FindingRule = (typeof FINDING_RULES)[number];

export interface DefinitionFinding {
  readonly rule: FindingRule;
  /** Where in the definition, as a path: `description`, `inputSchema.properties.path.description`. */
  readonly at: string;
  /** What was found, printable (hidden characters are named by code point, never echoed). */
  readonly detail: string;
}

/** One definition the gate holds back, and why. */
export interface WithheldDefinition {
  readonly server: string;
  readonly kind: DefinitionKind;
  /** The server's own name for it: a tool or prompt name, a resource URI, a URI template. */
  readonly name: string;
  readonly reason: WithheldReason;
  /** For `changed`: the pinned fields that differ (`description`, `inputSchema`, `body`, ...). */
  readonly fields?: readonly string[];
  /** For `flagged` (and any finding on a changed or new definition). */
  readonly findings?: readonly DefinitionFinding[];
  /** One line for people: what changed and how to approve it. */
  readonly message: string;
}

/** A definition as its server listed it, with the `ui://` body it presents (read by the mount), if any. */
export interface ListedDefinition {
  /** The MCP object as sent (`Tool`, `Prompt`, `Resource`, `ResourceTemplate`). */
  readonly item: JsonObject;
  /**
   * The `contents` read from the `ui://` resource this definition is or
   * shows (a tool's `_meta.ui.resourceUri`); `null` when that read failed;
   * absent when it presents none.
   */
  readonly uiBody?: JsonValue;
}

export type DefinitionVerdict =
  | { readonly kind: "admit"; readonly findings: readonly DefinitionFinding[] }
  | { readonly kind: "withhold"; readonly withheld: WithheldDefinition };

/**
 * The mount's port to the trust gate. `screen` sorts one server's listing of
 * one kind (the whole listing: what is absent from it is simply not there);
 * `screenBody` checks a `ui://` body read later against what was pinned for
 * it. Neither throws for a hostile definition: a value the gate cannot take
 * is withheld, with the reason.
 */
export interface DefinitionGate {
  screen(server: ServerConfig, kind: DefinitionKind, listed: readonly ListedDefinition[]): readonly DefinitionVerdict[];
  /** A `ui://` body read from `server`: withheld when it differs from the body pinned for `uri`. */
  screenBody(server: ServerConfig, uri: string, contents: JsonValue): DefinitionVerdict;
}

/** The scheme of MCP App bodies. */
export const UI_SCHEME = "ui://";

/**
 * The `ui://` resource a definition presents, whose body is pinned with it: a
 * `ui://` resource itself, or the one a tool shows (`_meta.ui.resourceUri`,
 * or the older flat `_meta["ui/resourceUri"]`). Undefined for anything else.
 */
export function presentedUi(kind: DefinitionKind, item: JsonObject): string | undefined {
  let uri: unknown;
  if (kind === "resource") uri = item["uri"];
  else if (kind === "tool" && isRecord(item["_meta"])) {
    const meta = item["_meta"];
    uri = isRecord(meta["ui"]) ? meta["ui"]["resourceUri"] : meta["ui/resourceUri"];
  }
  return typeof uri === "string" && uri.startsWith(UI_SCHEME) ? uri : undefined;
}
