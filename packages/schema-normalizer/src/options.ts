/**
 * Who the normalized schema is for, and the bounds that keep a hostile schema
 * from costing more than a well-behaved one.
 */

/** Provider families a schema can be shaped for. `portable` is the default. */
export const NORMALIZE_TARGETS = Object.freeze(["portable", "openai", "anthropic", "gemini"] as const);
export type NormalizeTarget = (typeof NORMALIZE_TARGETS)[number];

export interface NormalizeOptions {
  /**
   * `portable` (default), `openai` and `anthropic` emit the same standard JSON
   * Schema subset; `gemini` emits the OpenAPI 3.0 subset Gemini's
   * `FunctionDeclaration.parameters` accepts. See the README's provider table.
   */
  readonly target?: NormalizeTarget;
  /** Deepest schema nesting kept; deeper subschemas become `{}` (anything). */
  readonly maxDepth?: number;
  /** Most subschemas visited; past it subschemas become `{}` and objects open up. */
  readonly maxNodes?: number;
  /** How many times a schema may be re-entered on one path (a recursive `$ref` or a JS cycle). */
  readonly maxRecursion?: number;
}

export interface ResolvedOptions {
  readonly target: NormalizeTarget;
  readonly maxDepth: number;
  readonly maxNodes: number;
  readonly maxRecursion: number;
}

/** The defaults, frozen so callers can read (not change) them. */
export const NORMALIZE_DEFAULTS: ResolvedOptions = Object.freeze({
  target: "portable",
  maxDepth: 32,
  maxNodes: 10_000,
  maxRecursion: 2,
});

/** Hard ceilings: even a caller's options cannot ask for a stack overflow. */
const CEILINGS = { maxDepth: 256, maxNodes: 1_000_000, maxRecursion: 16 } as const;

function bounded(value: unknown, fallback: number, min: number, max: number): number {
  if (typeof value !== "number" || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.floor(value)));
}

function readOption(options: unknown, key: string): unknown {
  try {
    if (typeof options !== "object" || options === null) return undefined;
    const descriptor = Object.getOwnPropertyDescriptor(options, key);
    return descriptor && "value" in descriptor ? descriptor.value : undefined;
  } catch {
    return undefined;
  }
}

/** Total: whatever `options` is, a usable, clamped set of options comes back. */
export function resolveOptions(options: unknown): ResolvedOptions {
  // A fresh object rather than the frozen export: V8 reads frozen objects slower.
  if (options === undefined) return { ...NORMALIZE_DEFAULTS };
  const target = readOption(options, "target");
  return {
    target: (NORMALIZE_TARGETS as readonly unknown[]).includes(target)
      ? (target as NormalizeTarget)
      : NORMALIZE_DEFAULTS.target,
    maxDepth: bounded(readOption(options, "maxDepth"), NORMALIZE_DEFAULTS.maxDepth, 1, CEILINGS.maxDepth),
    maxNodes: bounded(readOption(options, "maxNodes"), NORMALIZE_DEFAULTS.maxNodes, 1, CEILINGS.maxNodes),
    maxRecursion: bounded(
      readOption(options, "maxRecursion"),
      NORMALIZE_DEFAULTS.maxRecursion,
      0,
      CEILINGS.maxRecursion,
    ),
  };
}
