/**
 * The assembled deck and its runtime tool box. A deck is an immutable list of
 * segments: fixed capabilities (the provisioned catalog rows) and live
 * sources (grafted MCP servers whose tool list can change). `graft`, `retain`
 * and `mapCapabilities` return new decks over the same session; the box
 * re-reads live sources on every call, so it always serves the current tools
 * (what it derives from them is rebuilt only when they changed).
 */
import type {
  ForwardRaw,
  ToolBox,
  ToolCall,
  ToolDescriptor,
  ToolOutcome,
  ToolRunner,
  RunOptions,
} from "@indus/contract";
import type { Capability, DeckContext } from "./vocabulary";
import { describeFailure, isDisposableCard } from "./card";
import { localToolContext } from "./local-context";
import { type DeckSession, bindSession } from "./session";
import { BridgeCapability } from "./mcp/bridge-capability";

/** A set of capabilities that can change (a grafted MCP fleet). */
export interface CapabilitySource {
  capabilities(): readonly Capability[];
  /** Called after the set changed; returns an unsubscribe. */
  onChanged(listener: () => void): () => void;
  /**
   * A value that changes (by `===`) whenever the set does. With it a deck's
   * tool box reuses its index until the value moves, instead of re-reading
   * every capability of the source on every call; without it, it re-reads.
   */
  revision?(): unknown;
}

export function isCapabilitySource(value: unknown): value is CapabilitySource {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as CapabilitySource).capabilities === "function" &&
    typeof (value as CapabilitySource).onChanged === "function"
  );
}

type Segment =
  | { readonly kind: "fixed"; readonly caps: readonly Capability[] }
  | {
      readonly kind: "live";
      readonly source: CapabilitySource;
      readonly view: (caps: readonly Capability[]) => Capability[];
    };

/** `f` applied once per capability, so a re-read live source keeps wrapped identities stable. */
function memoized(f: (cap: Capability) => Capability): (cap: Capability) => Capability {
  const cache = new WeakMap<Capability, Capability>();
  return (cap) => {
    let out = cache.get(cap);
    if (out === undefined) cache.set(cap, (out = f(cap)));
    return out;
  };
}

export class ToolDeck {
  /** @internal use `provisionDeck` */
  constructor(
    private readonly segments: readonly Segment[],
    /** The context the deck was provisioned with (handles and settings included). */
    readonly context: DeckContext,
    /** @internal */
    readonly session: DeckSession,
  ) {}

  /** Every capability, in order: a fresh array the caller may keep or change. */
  tools(): Capability[] {
    const out: Capability[] = [];
    for (const segment of this.segments) {
      if (segment.kind === "fixed") out.push(...segment.caps);
      else out.push(...segment.view(segment.source.capabilities()));
    }
    return out;
  }

  /**
   * One value per live source that changes whenever its set does (see
   * `CapabilitySource.revision`), or undefined when a live source keeps none.
   */
  revisions(): unknown[] | undefined {
    const out: unknown[] = [];
    for (const segment of this.segments) {
      if (segment.kind === "fixed") continue;
      const revision = segment.source.revision?.();
      if (revision === undefined) return undefined;
      out.push(revision);
    }
    return out;
  }

  /** True when a grafted source can change the tool set. */
  get isLive(): boolean {
    return this.segments.some((s) => s.kind === "live");
  }

  /** Appends capabilities (a fixed list, or a live source such as a mounted MCP bridge). */
  graft(extra: readonly Capability[] | CapabilitySource): ToolDeck {
    const segment: Segment = isCapabilitySource(extra)
      ? { kind: "live", source: extra, view: (caps) => [...caps] }
      : { kind: "fixed", caps: [...extra] };
    return new ToolDeck([...this.segments, segment], this.context, this.session);
  }

  /** Replaces every capability with `f(cap)` (interceptor wrapping); applies to live sources as they change. */
  mapCapabilities(f: (cap: Capability) => Capability): ToolDeck {
    const g = memoized(f);
    const segments = this.segments.map((s): Segment =>
      s.kind === "fixed" ? { kind: "fixed", caps: s.caps.map(g) } : { ...s, view: (caps) => s.view(caps).map(g) },
    );
    return new ToolDeck(segments, this.context, this.session);
  }

  /** Keeps only capabilities `keep` accepts (the `--tools` allow-list). */
  retain(keep: (cap: Capability) => boolean): ToolDeck {
    const segments = this.segments.map((s): Segment =>
      s.kind === "fixed"
        ? { kind: "fixed", caps: s.caps.filter(keep) }
        : { ...s, view: (caps) => s.view(caps).filter(keep) },
    );
    return new ToolDeck(segments, this.context, this.session);
  }

  /** Subscribes to changes of any live source; returns an unsubscribe. */
  onChanged(listener: () => void): () => void {
    const offs = this.segments.flatMap((s) => (s.kind === "live" ? [s.source.onChanged(listener)] : []));
    return () => {
      for (const off of offs) off();
    };
  }

  /**
   * The runtime box a conductor (or the provider host) consumes.
   * `whyUnknown` may add why a name is not there (a server still
   * connecting, say) to the error a call of an unknown tool gets.
   */
  intoToolBox(options: ToolBoxOptions = {}): ToolBox {
    return deckToolBox(this, options);
  }

  /** Stops the session's background processes and releases what the deck's cards hold. */
  async dispose(): Promise<void> {
    const cards = this.segments.flatMap((s) => (s.kind === "fixed" ? s.caps : []));
    await Promise.all([
      this.session.dispose(),
      ...cards.filter(isDisposableCard).map((c) => Promise.resolve(c.dispose()).catch(() => undefined)),
    ]);
  }
}

export function describeCapability(cap: Capability): ToolDescriptor {
  return {
    name: cap.name,
    description: cap.description,
    parameters: cap.parameters,
    annotations: { title: cap.label, readOnlyHint: cap.readOnly },
    // A grafted MCP tool's own form, for a gateway to republish unchanged.
    ...(cap.wire === undefined ? {} : { wire: cap.wire }),
  };
}

interface ToolIndex {
  readonly byName: ReadonlyMap<string, Capability>;
  /** The same list while the tools are the same, so a consumer may key its own caches on it. */
  readonly descriptors: readonly ToolDescriptor[];
}

/**
 * The deck's tools by name and as descriptors, rebuilt only when the list
 * changed (other capabilities, or another order). A gateway looks a tool up on
 * every call: while every live source's revision stands, the index is reused
 * without reading the sources at all (reading them costs time in proportion to
 * the tools mounted); a source without revisions is read and compared per use.
 */
function toolIndex(deck: ToolDeck): () => ToolIndex {
  let caps: readonly Capability[] = [];
  let revisions: readonly unknown[] | undefined;
  let index: ToolIndex = { byName: new Map(), descriptors: [] };
  return () => {
    const now = deck.revisions();
    if (now !== undefined && revisions !== undefined && sameList(now, revisions)) return index;
    const current = deck.tools();
    if (!sameList(current, caps)) {
      const named = byName(current);
      index = { byName: named, descriptors: [...named.values()].map(describeCapability) };
      caps = current;
    }
    revisions = now;
    return index;
  };
}

function sameList(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function byName(caps: readonly Capability[]): Map<string, Capability> {
  const map = new Map<string, Capability>();
  for (const cap of caps) if (!map.has(cap.name)) map.set(cap.name, cap);
  return map;
}

const NEVER = new AbortController().signal;

function unknownToolText(name: string, listed: string, why: string | undefined): string {
  return `unknown tool "${name}"; ${why === undefined ? "" : `${why}; `}available tools: ${listed}`;
}

function failure(call: ToolCall, error: unknown, signal: AbortSignal): ToolOutcome {
  return {
    callId: call.id,
    isError: true,
    content: [{ type: "text", text: describeFailure(call.name, error, signal) }],
  };
}

/** What a deck's tool box may be told when it is made (`ToolDeck.intoToolBox`). */
export interface ToolBoxOptions {
  /** Why `name` may be missing, added to an unknown tool's error (and the box's `whyUnknown`); undefined adds nothing. */
  readonly whyUnknown?: (name: string) => string | undefined;
}

function deckToolBox(deck: ToolDeck, boxOptions: ToolBoxOptions): ToolBox {
  // One base context per deck; each call gets the call's signal on a copy bound to the same session.
  const base = bindSession(localToolContext(deck.context.cwd), deck.session);
  const index = toolIndex(deck);
  const descriptors = (): readonly ToolDescriptor[] => index().descriptors;

  // A mounted tool's call may be taken raw by its server (see `ForwardRaw` in @indus/contract): nothing of the deck's applies to it.
  const forwardRaw: ForwardRaw = (call) => {
    const cap = index().byName.get(call.name);
    return cap instanceof BridgeCapability ? cap.forwardRaw(call) : undefined;
  };
  const runner: ToolRunner = {
    forwardRaw,
    async run(call: ToolCall, options?: RunOptions): Promise<ToolOutcome> {
      const tools = index().byName;
      const cap = tools.get(call.name);
      if (!cap) {
        const known = [...tools.keys()];
        const listed =
          known.length > 40 ? `${known.slice(0, 40).join(", ")}, ... (${known.length} in all)` : known.join(", ");
        return {
          callId: call.id,
          isError: true,
          content: [{ type: "text", text: unknownToolText(call.name, listed, boxOptions.whyUnknown?.(call.name)) }],
        };
      }
      const signal = options?.signal ?? NEVER;
      if (cap instanceof BridgeCapability) {
        try {
          return await cap.forward(call, options);
        } catch (error) {
          return failure(call, error, signal);
        }
      }
      const ctx = bindSession(
        {
          ...base,
          signal,
          ...(options?.onProgress ? { onProgress: options.onProgress } : {}),
          ...(options?.relayTo ? { relayTo: options.relayTo } : {}),
          ...(options?.logs ? { logs: options.logs } : {}),
        },
        deck.session,
      );
      try {
        const result = await cap.run(call.input, ctx);
        return {
          callId: call.id,
          content: result.content,
          isError: result.isError === true,
          ...(result.structuredContent === undefined ? {} : { structuredContent: result.structuredContent }),
          ...(result.wire === undefined ? {} : { wire: result.wire }),
          ...(result.rpcError === undefined ? {} : { rpcError: result.rpcError }),
        };
      } catch (error) {
        return failure(call, error, signal);
      }
    },
  };

  const box: { -readonly [K in keyof ToolBox]: ToolBox[K] } = { descriptors, runner };
  if (boxOptions.whyUnknown) box.whyUnknown = boxOptions.whyUnknown;
  if (deck.isLive) box.onDescriptorsChanged = (listener) => deck.onChanged(listener);
  return box;
}
