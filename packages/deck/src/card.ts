/**
 * The one way this package mints a `Card`: metadata plus a run function that
 * may throw. The wrapper keeps the `Card` promise (never throws): input errors,
 * cancellations and crashes all become `isError` results.
 */
import type { JsonSchema, ToolResult } from "@indus/contract";
import type { Card, ToolContext } from "./vocabulary";
import { ArgError } from "./args";
import { errorResult } from "./results";

/** A `Card` whose `run` may throw, and which may hold resources. */
export interface CardSpec extends Card {
  /** Releases what the card holds (child processes); called by `ToolDeck.dispose`. */
  dispose?(): Promise<void> | void;
}

/** A card that may hold resources a deck should release. */
export interface DisposableCard extends Card {
  dispose(): Promise<void> | void;
}

export function isDisposableCard(card: Card): card is DisposableCard {
  return typeof (card as Partial<DisposableCard>).dispose === "function";
}

export function defineCard(spec: CardSpec): Card {
  const card: Card & { dispose?: () => Promise<void> | void } = {
    name: spec.name,
    label: spec.label,
    description: spec.description,
    parameters: spec.parameters,
    readOnly: spec.readOnly,
    async run(input: unknown, ctx: ToolContext): Promise<ToolResult> {
      if (ctx.signal.aborted) return errorResult(`${spec.name}: cancelled before it started`);
      try {
        return await spec.run(input, ctx);
      } catch (error) {
        return errorResult(describeFailure(spec.name, error, ctx.signal));
      }
    },
  };
  if (spec.dispose) card.dispose = spec.dispose.bind(spec);
  return card;
}

export function describeFailure(name: string, error: unknown, signal?: AbortSignal): string {
  if (error instanceof ArgError) return `${name}: invalid arguments: ${error.message}`;
  if (signal?.aborted) return `${name}: cancelled`;
  const message = error instanceof Error ? error.message : String(error);
  return `${name}: ${message}`;
}

/** A JSON Schema for an object with these properties. */
export function objectSchema(properties: Record<string, JsonSchema>, required: readonly string[] = []): JsonSchema {
  return { type: "object", properties, required: [...required], additionalProperties: false };
}
