/**
 * What every keyword family reads: the plan `body` worked out before walking
 * the keywords, what has been emitted so far, and the walk itself (for the
 * families whose keywords hold subschemas).
 */
import type { JsonType } from "../keywords";
import type { SchemaNode } from "../node";
import type { Snapshot } from "../read";

/** Everything `body` decided before walking the keywords. */
export interface BodyPlan {
  readonly record: Snapshot;
  readonly type: JsonType | undefined;
  readonly depth: number;
  readonly withAnnotations: boolean;
  readonly applies: (keyword: string) => boolean;
  readonly properties: SchemaNode | undefined;
  readonly propertiesCut: boolean;
  readonly required: string[] | undefined;
  readonly values: unknown[] | undefined;
  readonly items: SchemaNode | undefined;
  /** The walk itself, for keywords whose values are subschemas. */
  readonly walk: Walk;
}

/** What the keyword walk has emitted so far, and which once-only keywords it has seen. */
export interface Emitted {
  readonly out: SchemaNode;
  /** Subschemas intersected with `out` at the end (`allOf`, a non-union `anyOf`). */
  readonly pending: SchemaNode[];
  anyOf: boolean;
  values: boolean;
  items: boolean;
}

/** The one pass, as the families that hold subschemas call back into it. */
export interface Walk {
  /** Normalizes one subschema found at `depth`. */
  node(raw: unknown, depth: number): SchemaNode;
  /** Schemas of a list keyword within budget; undefined when the budget cannot cover them. */
  schemaList(value: readonly unknown[]): unknown[] | undefined;
  /** Nodes of budget left. */
  remaining(): number;
}
