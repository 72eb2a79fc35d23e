/**
 * The capability deck's vocabulary: one uniform callable (`Card`) for
 * built-ins, app cards and grafted MCP tools; catalog rows that build them;
 * the profiles that select them; and the host-injected handles they use.
 */
import type { JsonSchema, JsonValue } from "./json";
import { brandFault, faultBrand, hasFaultBrand } from "./brand";
import { TOOL_NAME_PATTERN } from "./names";
import type { ToolContext, ToolResult } from "./tool-box";

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
  /** Never throws: a failure or a cancellation is an `isError` result. */
  run(input: unknown, ctx: ToolContext): Promise<ToolResult>;
}

/** What every deck list holds. */
export type Capability = Card;

declare const capabilityIdBrand: unique symbol;
/** A vetted wire-facing tool name (`read`, `bg-process`, `github__create_issue`). */
export type CapabilityId = string & { readonly [capabilityIdBrand]: true };

/** The one minter of `CapabilityId`: refuses names no provider accepts. */
export function capabilityId(name: string): CapabilityId {
  if (!TOOL_NAME_PATTERN.test(name)) {
    throw new DeckFault(
      "unknown-capability",
      `"${name}" is not a valid capability id: use 1-64 of a-z, A-Z, 0-9, _ or -`,
    );
  }
  return name as CapabilityId;
}

/** The named capability sets a session can be provisioned with. */
export const PROFILES = ["authoring", "survey", "all"] as const;
export type Profile = (typeof PROFILES)[number];

export function isProfile(value: unknown): value is Profile {
  return typeof value === "string" && (PROFILES as readonly string[]).includes(value);
}

/** Mints the live capability for one context; pure with respect to the deck. */
export type BuildFn = (ctx: DeckContext) => Capability;

/** One catalog row: identity for help and listings, membership, and a builder. */
export interface CapabilityCard {
  readonly id: CapabilityId;
  readonly title: string;
  readonly summary: string;
  readonly profiles: readonly Profile[];
  readonly build: BuildFn;
}

/** The working context a catalog row is built against. */
export interface DeckContext {
  readonly cwd: string;
  readonly framework: DeckFramework;
}

/** Optional handles a host injects; a card degrades gracefully without them. */
export interface DeckFramework {
  readonly readState?: ReadStateHandle;
  readonly checkpoint?: CheckpointStore;
  readonly delegate?: DelegateRunner;
  readonly saas?: SaasGatewayPort;
  readonly memory?: MemoryStore;
  /** Where session files (plans, spilled results, logs) live. */
  readonly sessionDir?: string;
}

/** What `read` saw of a file, for the read-before-edit gate. */
export interface ReadRecord {
  readonly mtimeMs: number;
  readonly size: number;
}

/** Files read this session, keyed by absolute path. */
export interface ReadStateHandle {
  record(path: string, seen: ReadRecord): void;
  get(path: string): ReadRecord | undefined;
}

/** Saves a file's prior content before a write, for a later rewind. */
export interface CheckpointStore {
  /** The transcript node writes are filed under right now. */
  activeNode(): string;
  /** `previous === null` records that the file did not exist. First-seen wins per (node, path). */
  record(node: string, path: string, previous: Uint8Array | null): void | Promise<void>;
}

export interface DelegateRequest {
  readonly objective: string;
  readonly agent?: string;
  readonly context?: string;
}

export interface DelegateAnswer {
  readonly ok: boolean;
  readonly output: string;
}

/** Runs a sub-agent for the `task` card. */
export interface DelegateRunner {
  listAgents(): readonly { readonly name: string; readonly description: string }[];
  run(request: DelegateRequest, signal: AbortSignal): Promise<DelegateAnswer>;
}

/** Discovers and executes third-party SaaS actions for the `saas-action` card. */
export interface SaasGatewayPort {
  discover(query: { readonly vendor?: string; readonly query?: string }, signal: AbortSignal): Promise<JsonValue>;
  execute(action: string, params: JsonValue, signal: AbortSignal): Promise<JsonValue>;
}

/** Working-memory scratch notes for the `memory` card. */
export interface MemoryStore {
  read(): Promise<string>;
  replace(text: string): Promise<void>;
  append(text: string): Promise<void>;
}

export const DECK_FAULT_KINDS = ["unknown-capability", "build-failed", "bridge", "backend"] as const;
export type DeckFaultKind = (typeof DECK_FAULT_KINDS)[number];

const DECK_FAULT_BRAND = faultBrand("DeckFault");

/** A typed deck failure; branch on `kind`. */
export class DeckFault extends Error {
  override readonly name = "DeckFault";
  readonly kind: DeckFaultKind;

  constructor(kind: DeckFaultKind, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
  }

  /** True for a fault minted by any copy of `@indus/contract` (brand check, not `instanceof`). */
  static isInstance(value: unknown): value is DeckFault {
    return hasFaultBrand(value, DECK_FAULT_BRAND);
  }
}
brandFault(DeckFault, "DeckFault");

export function isDeckFault(value: unknown): value is DeckFault {
  return (
    DeckFault.isInstance(value) ||
    (value instanceof Error &&
      value.name === "DeckFault" &&
      (DECK_FAULT_KINDS as readonly unknown[]).includes((value as { kind?: unknown }).kind))
  );
}

/** The result of a fallible deck operation. */
export type DeckResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly fault: DeckFault };
