/** The one uniform callable for built-ins, app cards and grafted MCP tools. */
import type { JsonObject, JsonSchema, ToolResult } from "@indus/contract";
import type { ToolContext } from "./tool-context";

/** The uniform behaviour of one deck-managed tool. */
export interface Card {
  /** The wire-facing name the model calls. */
  readonly name: string;
  /** The deck-side display title. */
  readonly label: string;
  readonly description: string;
  readonly parameters: JsonSchema;
  /** The permission gate always lets read-only tools run. */
  readonly readOnly: boolean;
  /** A grafted MCP tool as its server sent it, for a gateway to republish (see `ToolDescriptor.wire`). */
  readonly wire?: JsonObject;
  /** Never throws: a failure or a cancellation is an `isError` result. */
  run(input: unknown, ctx: ToolContext): Promise<ToolResult>;
}

/** What every deck list holds. */
export type Capability = Card;
