/**
 * The rug-pull gate: each server's definitions are pinned the first time a
 * kind is listed (tools, prompts, resources, templates), and from then on a
 * definition that differs from its pin is withheld until approved. A name
 * the server adds later is, under `pin`, pinned at first sight and announced
 * ("added since pinned") unless inspection flags it; under `strict`, or when
 * flagged, it is withheld like a change. A definition that vanished is simply
 * not listed. Every definition is inspected on every listing; a `strict`
 * server's flagged definitions are withheld (and never pinned), a `pin`
 * server's are reported. `off` takes everything as it comes. The pins live in
 * a `PinStore` (the host's lock files); one that never writes (a stateless
 * replica) withholds whatever is not pinned already.
 * See docs/decisions/trust-new-definitions.md.
 */
import type {
  DefinitionFinding,
  DefinitionGate,
  DefinitionKind,
  DefinitionVerdict,
  JsonObject,
  JsonValue,
  ListedDefinition,
  ServerConfig,
  WithheldDefinition,
  WithheldReason,
} from "@indus/contract";
import { isRecord } from "@indus/contract";
import { inspectDefinition } from "./inspect";
import type { KnownTools } from "./cross-server";
import { bodyDigest, changedFields, definitionName, pinnedDefinition } from "./pinned-definition";
import { pinOf, type KindPins, type Pin, type ServerPins } from "./pin-book";
import { addedMessage, withheldMessage } from "./withheld-message";

/** Where a gate keeps its pins. */
export interface PinStore {
  /** What is pinned for `server` now (undefined: nothing yet). */
  read(server: string): ServerPins | undefined;
  /**
   * Pin each of `pins` that `kind` of `server` has no pin for yet (all of
   * them when the kind was never pinned; another writer's pins stand), and
   * record `listedWith` among the capabilities the kind was listed with;
   * returns what is pinned after the write. Undefined when this store never
   * writes.
   */
  pinMissing(server: string, kind: DefinitionKind, pins: KindPins, listedWith: readonly string[]): KindPins | undefined;
}

/** What inspection found in one definition that was let through. */
export interface FlaggedDefinition {
  readonly kind: DefinitionKind;
  readonly name: string;
  readonly findings: readonly DefinitionFinding[];
}

/** A name a pinned server added, pinned at first sight by this process (under `pin`, when inspection found nothing). */
export interface AddedDefinition {
  readonly server: string;
  readonly kind: DefinitionKind;
  readonly name: string;
  /** One line for people: what was added and where to see its pin. */
  readonly message: string;
}

/** One server's standing with the gate, from its latest listings. */
export interface TrustReport {
  readonly withheld: readonly WithheldDefinition[];
  /** Findings on definitions that were admitted (a `pin` server's are reported, not refused). */
  readonly flagged: readonly FlaggedDefinition[];
  /** Names added since the server was pinned, pinned at first sight by this process. */
  readonly added: readonly AddedDefinition[];
}

export interface PinGateOptions {
  readonly store: PinStore;
  /** Every mounted server id: whose tool names cross-server inspection knows (listed or pinned). */
  readonly servers?: readonly string[];
  /**
   * The client capabilities this process's connections declare
   * (`elicitation`, `roots`, `sampling`, `ui` for MCP Apps). A server may list more to a
   * client that declares more: what it adds then is pinned as first seen,
   * once, instead of being withheld as new.
   */
  readonly declared?: readonly string[];
}

interface Screened {
  readonly name: string;
  readonly definition: JsonObject;
  readonly pin: Pin;
  readonly findings: readonly DefinitionFinding[];
}

type KindReport = { withheld: WithheldDefinition[]; flagged: FlaggedDefinition[] };

/** What a listing is held against: the kind's pins after this listing, and the names it pinned as added. */
interface Standing {
  readonly pins: KindPins | undefined;
  readonly added: readonly Screened[];
}

const unflagged = (s: Screened) => s.findings.length === 0;

export class PinGate implements DefinitionGate {
  private readonly reports = new Map<string, Map<DefinitionKind, KindReport>>();
  private readonly listed = new Map<string, ReadonlySet<string>>();
  private readonly added = new Map<string, AddedDefinition[]>();
  /** The tool names each mounted server is known by; its entry is dropped when its tool listing or pins change. */
  private readonly known = new Map<string, ReadonlySet<string>>();
  private readonly listeners = new Set<(withheld: WithheldDefinition) => void>();
  private readonly addedListeners = new Set<(added: AddedDefinition) => void>();

  constructor(private readonly options: PinGateOptions) {}

  screen(
    server: ServerConfig,
    kind: DefinitionKind,
    listed: readonly ListedDefinition[],
  ): readonly DefinitionVerdict[] {
    if ((server.trust ?? "pin") === "off") return listed.map(() => ({ kind: "admit", findings: [] }));
    if (kind === "tool") {
      this.listed.set(server.id, new Set(listed.map((l) => definitionName("tool", l.item))));
      this.forgetKnown(server.id);
    }
    const known = this.knownTools();
    const screened = listed.map((l): Screened => {
      const definition = pinnedDefinition(kind, l);
      const findings = inspectDefinition(definition, { server: server.id, known });
      return { name: definitionName(kind, l.item), definition, pin: pinOf(definition), findings };
    });
    const strict = server.trust === "strict";
    const standing = this.standing(server.id, kind, screened, strict);
    const verdicts = screened.map((s) => this.verdict(s, { server: server.id, kind, pinned: standing.pins, strict }));
    this.record(server.id, kind, screened, verdicts);
    this.announceAdded(server.id, kind, standing.added);
    return verdicts;
  }

  screenBody(server: ServerConfig, uri: string, contents: JsonValue): DefinitionVerdict {
    if ((server.trust ?? "pin") === "off") return { kind: "admit", findings: [] };
    const digest = bodyDigest(contents);
    const pins = this.safeRead(server.id);
    const bodies = [...Object.values(pins?.tool ?? {}), ...Object.values(pins?.resource ?? {})]
      .map((pin) => pin.definition["ui"])
      .filter((ui): ui is JsonObject => isRecord(ui) && ui["resourceUri"] === uri)
      .map((ui) => ui["body"]);
    if (bodies.length > 0 && bodies.every((body) => body === digest)) return { kind: "admit", findings: [] };
    // A body no pinned tool or resource presents has no pin to hold it to: it is not let through unchecked.
    const facts = {
      server: server.id,
      kind: "resource" as const,
      name: uri,
      reason: bodies.length === 0 ? ("unpinned" as const) : ("changed" as const),
      fields: ["ui"],
    };
    return { kind: "withhold", withheld: { ...facts, message: withheldMessage(facts) } };
  }

  /**
   * What inspection finds in a server's `instructions` (empty under trust
   * "off"): they reach the model like a description does, so the same
   * hidden-character, override and cross-server checks apply. Not pinned:
   * instructions are quoted as the server's words, never run.
   */
  inspectInstructions(server: ServerConfig, text: string): DefinitionFinding[] {
    if ((server.trust ?? "pin") === "off") return [];
    return inspectDefinition({ instructions: text }, { server: server.id, known: this.knownTools() });
  }

  /** One server's withheld and flagged definitions, from its latest listings. */
  report(server: string): TrustReport {
    const kinds = [...(this.reports.get(server)?.values() ?? [])];
    return {
      withheld: kinds.flatMap((k) => k.withheld),
      flagged: kinds.flatMap((k) => k.flagged),
      added: [...(this.added.get(server) ?? [])],
    };
  }

  /** Why a definition is withheld now (undefined: it is not). */
  withheld(server: string, kind: DefinitionKind, name: string): WithheldDefinition | undefined {
    return this.reports
      .get(server)
      ?.get(kind)
      ?.withheld.find((w) => w.name === name);
  }

  /** Hear of each definition as it becomes withheld (not again while it stays so); returns an unsubscribe. */
  onWithheld(listener: (withheld: WithheldDefinition) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Hear of each name a pinned server added as this process pins it at first sight; returns an unsubscribe. */
  onAdded(listener: (added: AddedDefinition) => void): () => void {
    this.addedListeners.add(listener);
    return () => this.addedListeners.delete(listener);
  }

  private knownTools(): KnownTools {
    const known = this.known;
    for (const server of [...(this.options.servers ?? []), ...this.listed.keys()]) {
      if (known.has(server)) continue;
      const pinned = Object.keys(this.safeRead(server)?.tool ?? {});
      known.set(server, new Set([...pinned, ...(this.listed.get(server) ?? [])]));
    }
    return known;
  }

  private forgetKnown(server: string): void {
    this.known.delete(server);
  }

  private safeRead(server: string): ServerPins | undefined {
    try {
      return this.options.store.read(server);
    } catch {
      return undefined;
    }
  }

  /**
   * The kind's pins this listing is held against. When the kind was never
   * pinned, or is listed with capabilities it never was (a server may list
   * more to a client declaring more), that is first use: the listing is
   * pinned (under `strict`, or over existing pins, what inspection let
   * through). Otherwise, under `pin`, names the server added are pinned at
   * first sight when inspection found nothing; under `strict` they wait.
   */
  private standing(server: string, kind: DefinitionKind, screened: readonly Screened[], strict: boolean): Standing {
    const standing = this.safeRead(server);
    const pinned = standing?.[kind];
    const declared = this.options.declared ?? [];
    const listedWith = new Set(standing?.listedWith?.[kind] ?? []);
    if (pinned === undefined || !declared.every((c) => listedWith.has(c))) {
      const first = strict || pinned !== undefined ? screened.filter(unflagged) : screened;
      return { pins: this.pinMissing(server, kind, first) ?? pinned, added: [] };
    }
    const fresh = strict ? [] : screened.filter((s) => pinned[s.name] === undefined && unflagged(s));
    if (fresh.length === 0) return { pins: pinned, added: [] };
    const pins = this.pinMissing(server, kind, fresh) ?? pinned;
    return { pins, added: fresh.filter((s) => pins[s.name]?.digest === s.pin.digest) };
  }

  /** Pins what `screened` names and the kind lacks; undefined when the store never writes or failed. */
  private pinMissing(server: string, kind: DefinitionKind, screened: readonly Screened[]): KindPins | undefined {
    if (kind === "tool") this.forgetKnown(server);
    try {
      const pins = Object.fromEntries(screened.map((s) => [s.name, s.pin]));
      return this.options.store.pinMissing(server, kind, pins, this.options.declared ?? []);
    } catch {
      return undefined;
    }
  }

  private verdict(
    screened: Screened,
    {
      server,
      kind,
      pinned,
      strict,
    }: { server: string; kind: DefinitionKind; pinned: KindPins | undefined; strict: boolean },
  ): DefinitionVerdict {
    const pin = pinned?.[screened.name];
    const withhold = (reason: WithheldReason, fields?: readonly string[]): DefinitionVerdict => {
      const facts = {
        server,
        kind,
        name: screened.name,
        reason,
        ...(fields ? { fields } : {}),
        ...(screened.findings.length > 0 ? { findings: screened.findings } : {}),
      };
      return { kind: "withhold", withheld: { ...facts, message: withheldMessage(facts) } };
    };
    if (strict && screened.findings.length > 0) return withhold("flagged");
    if (pinned === undefined) return withhold("unpinned");
    // A name pin-trust could not pin at first sight: a replica never pins; strict or flagged ones wait for approval.
    if (pin === undefined) return withhold(strict || screened.findings.length > 0 ? "new" : "unpinned");
    if (pin.digest !== screened.pin.digest)
      return withhold("changed", changedFields(pin.definition, screened.definition));
    return { kind: "admit", findings: screened.findings };
  }

  private record(
    server: string,
    kind: DefinitionKind,
    screened: readonly Screened[],
    verdicts: readonly DefinitionVerdict[],
  ): void {
    const before = new Set(
      this.reports
        .get(server)
        ?.get(kind)
        ?.withheld.map((w) => w.name),
    );
    const report: KindReport = { withheld: [], flagged: [] };
    verdicts.forEach((verdict, i) => {
      const findings = screened[i]!.findings;
      if (verdict.kind === "withhold") report.withheld.push(verdict.withheld);
      else if (findings.length > 0) report.flagged.push({ kind, name: screened[i]!.name, findings });
    });
    const kinds = this.reports.get(server) ?? new Map<DefinitionKind, KindReport>();
    kinds.set(kind, report);
    this.reports.set(server, kinds);
    for (const withheld of report.withheld) if (!before.has(withheld.name)) this.emit(withheld);
  }

  private announceAdded(server: string, kind: DefinitionKind, added: readonly Screened[]): void {
    const seen = this.added.get(server) ?? [];
    for (const s of added) {
      if (seen.some((a) => a.kind === kind && a.name === s.name)) continue;
      const facts = { server, kind, name: s.name };
      const each: AddedDefinition = { ...facts, message: addedMessage(facts) };
      seen.push(each);
      this.added.set(server, seen);
      for (const listener of this.addedListeners) {
        try {
          listener(each);
        } catch {
          // A listener's bug must not break the gate.
        }
      }
    }
  }

  private emit(withheld: WithheldDefinition): void {
    for (const listener of this.listeners) {
      try {
        listener(withheld);
      } catch {
        // A listener's bug must not break the gate.
      }
    }
  }
}
