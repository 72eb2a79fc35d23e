/**
 * One process's trust gate: the deck's `PinGate` over the lock files beside
 * the config files the servers came from. The CLI hands `gate` to the fleet
 * (so the agent, `tools`, `call` and the gateway see the same verdicts) and
 * reads each server's standing back for `mcp status`, `doctor`, the REPL and
 * the error a call of a withheld tool gets.
 */
import {
  QUALIFIER,
  type ClientHostHooks,
  type DefinitionFinding,
  type ServerConfig,
  type TrustMode,
  type WithheldDefinition,
} from "@indus/contract";
import { PinGate, type AddedDefinition, type FlaggedDefinition } from "@indus/deck/trust";
import { type McpServerOrigin } from "@indus/deck/mcp-config";
import { LockFiles, type LockFileProblem } from "./lock-files";

/** One server's standing, as the commands report it. */
export interface ServerTrust {
  readonly mode: TrustMode;
  /** Where its pins are kept (none for a server from no file, or under `off`). */
  readonly lockFile?: string;
  readonly withheld: readonly WithheldDefinition[];
  readonly flagged: readonly FlaggedDefinition[];
  /** Names added since the server was pinned, pinned at first sight by this process. */
  readonly added: readonly AddedDefinition[];
  /** What inspection found in the server's `instructions` (withheld from the model under "strict"). */
  readonly instructions?: readonly DefinitionFinding[];
}

/** A server's instructions after inspection: `text` is undefined when "strict" withholds them. */
export interface ScreenedInstructions {
  readonly text: string | undefined;
  readonly findings: readonly DefinitionFinding[];
}

/** A server a read-only process (a stateless replica) has no pins for: everything it lists is withheld. */
export interface UnshippedPins {
  readonly server: string;
  /** The config file that defines it, and the lock file that should ship beside it. */
  readonly config: string;
  readonly lockFile: string;
}

export interface TrustSessionOptions {
  readonly servers: readonly ServerConfig[];
  readonly origins: ReadonlyMap<string, McpServerOrigin>;
  /** A stateless replica: pins are read from the shipped lock files, never written. */
  readonly readOnly?: boolean;
  /** Who answers the servers' requests in this process: the capabilities every connection declares. */
  readonly clientHost?: ClientHostHooks;
}

/** The client capabilities connections with `host` declare (what a server may list more tools for). */
export function declaredCapabilities(host: ClientHostHooks | undefined): string[] {
  const declared: string[] = [];
  if (host?.elicit) declared.push("elicitation");
  if (host?.listRoots) declared.push("roots");
  if (host?.createMessage) declared.push("sampling");
  // The MCP Apps extension: a server may offer its app tools only to a client that shows views.
  if ((host?.appViews ?? []).length > 0) declared.push("ui");
  return declared;
}

export class TrustSession {
  readonly gate: PinGate;
  readonly lockFiles: LockFiles;
  private readonly modes: ReadonlyMap<string, TrustMode>;
  /** Each server's instructions as last inspected (they are read at every handshake of the gateway). */
  private readonly instructionsSeen = new Map<
    string,
    { readonly text: string; readonly screened: ScreenedInstructions }
  >();

  constructor(private readonly options: TrustSessionOptions) {
    this.modes = new Map(options.servers.map((s) => [s.id, s.trust ?? "pin"]));
    this.lockFiles = new LockFiles({
      configOf: (server) => options.origins.get(server)?.file,
      ...(options.readOnly ? { readOnly: true } : {}),
    });
    this.gate = new PinGate({
      store: this.lockFiles,
      servers: options.servers.map((s) => s.id),
      declared: declaredCapabilities(options.clientHost),
    });
  }

  report(server: string): ServerTrust {
    const mode = this.modes.get(server) ?? "pin";
    const lockFile = mode === "off" ? undefined : this.lockFiles.fileOf(server);
    const instructions = this.instructionsSeen.get(server)?.screened.findings ?? [];
    return {
      mode,
      ...(lockFile ? { lockFile } : {}),
      ...this.gate.report(server),
      ...(instructions.length > 0 ? { instructions } : {}),
    };
  }

  /**
   * A server's `instructions` as the model may read them: inspected like a
   * description, flagged in the report, and withheld under trust "strict"
   * when inspection finds anything.
   */
  screenInstructions(server: string, text: string): ScreenedInstructions {
    const seen = this.instructionsSeen.get(server);
    if (seen?.text === text) return seen.screened;
    const config = this.options.servers.find((s) => s.id === server);
    if (config === undefined) return { text, findings: [] };
    const findings = this.gate.inspectInstructions(config, text);
    const withhold = findings.length > 0 && config.trust === "strict";
    const screened = { text: withhold ? undefined : text, findings };
    this.instructionsSeen.set(server, { text, screened });
    return screened;
  }

  /**
   * On a read-only process, the gated servers whose lock file pins nothing
   * for them (missing, or without their entry): a replica never pins on its
   * own, so all they list is withheld. Empty when this process may pin.
   */
  unshippedPins(): UnshippedPins[] {
    if (this.options.readOnly !== true) return [];
    return this.options.servers.flatMap((server) => {
      const config = this.options.origins.get(server.id)?.file;
      if ((server.trust ?? "pin") === "off" || config === undefined) return [];
      if (this.lockFiles.read(server.id) !== undefined) return [];
      return [{ server: server.id, config, lockFile: this.lockFiles.fileOf(server.id) ?? config }];
    });
  }

  /** Lock files that could not be read or written as they should. */
  problems(): LockFileProblem[] {
    return this.lockFiles.problems();
  }

  /** Why a tool the box does not list is withheld, by its published name (prefixed or the server's own). */
  whyWithheld(name: string): string | undefined {
    for (const server of this.modes.keys()) {
      const tool = name.startsWith(`${server}${QUALIFIER}`) ? name.slice(server.length + QUALIFIER.length) : name;
      const withheld = this.gate.withheld(server, "tool", tool);
      if (withheld !== undefined) return withheld.message;
    }
    return undefined;
  }

  /** Hear of each definition as it becomes withheld; returns an unsubscribe. */
  onWithheld(listener: (withheld: WithheldDefinition) => void): () => void {
    return this.gate.onWithheld(listener);
  }

  /** Hear of each name a pinned server adds as it is pinned at first sight; returns an unsubscribe. */
  onAdded(listener: (added: AddedDefinition) => void): () => void {
    return this.gate.onAdded(listener);
  }
}
