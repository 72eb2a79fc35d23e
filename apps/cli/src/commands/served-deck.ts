/**
 * The gateway's deck: booted, wrapped for serving (profile, instructions),
 * with the boot's warnings said once the boot wait is over. Loaded by
 * `mcp serve` only after its stdio host is up, so the handshake is answered
 * before any of this (the deck, the MCP client side, the mounts) loads.
 */
import type { ProtocolFault, ToolBox } from "@indus/contract";
import { nameClashOf } from "@indus/fleet";
import { bootDeck } from "../boot/boot";
import type { BootedDeck, ServerReport } from "../boot/boot-types";
import type { LateClientHost } from "../boot/late-client-host";
import { BUILT_IN } from "../boot/name-clashes";
import type { CliEnv } from "../cli-env";
import { onTeardown } from "../teardown";
import { MAX_SERVER_INSTRUCTIONS, fenceServerText, quotedServerText } from "../trust/server-text";
import { announceTrust } from "../trust/trust-lines";
import { gatewayBox } from "./gateway-profile";
import type { ServeFlags } from "./serve-flags";
import { bootOptionsOf, warnDiagnostics, warnFailedServers, warnTrust, warnUnshippedPins } from "./shared";

export type Names = "prefixed" | "as-is";

/** How the gateway serves, decided from the flags before anything boots. */
export interface ServeSetup {
  readonly names: Names;
  readonly builtins: boolean;
  /** The boot wait, counted from the process's start. */
  readonly bootWaitMs: number;
  readonly clientHost: LateClientHost;
}

/** The booted deck as the gateway serves it. */
export interface ServedDeck {
  readonly cli: CliEnv;
  readonly deck: BootedDeck;
  readonly box: ToolBox;
  /** Read at each handshake: the servers connected by then speak. */
  readonly instructions: () => string | undefined;
  /** Settles once every mounted server settled or the boot wait passed. */
  readonly booted: Promise<void>;
  /** As-is names: the clashes standing now stop the gateway (true: they were said). */
  refuseClashes(): Promise<boolean>;
  /** Stops the warnings and closes the deck. */
  close(): Promise<void>;
}

/** Boots the deck `flags` ask for and wraps it for serving. */
export async function bootServedDeck(flags: ServeFlags, setup: ServeSetup): Promise<ServedDeck> {
  // stdout carries the protocol in stdio mode: nothing else may write to it.
  const { cli, options } = bootOptionsOf({ ...flags, json: true }, "authoring");
  const { names, builtins } = setup;
  const untilBootWait = () => Math.max(0, setup.bootWaitMs - Math.round(performance.now()));
  const deck = await bootDeck({
    ...options,
    names,
    builtins,
    // The handshake goes out at once; only as-is names wait, as the clashes standing then decide whether to serve.
    bootWaitMs: names === "as-is" ? untilBootWait() : 0,
    clientHost: setup.clientHost.hooks,
    // A replica runs what the shipped lock files pin, and never pins on its own.
    ...(flags.stateless ? { readOnlyPins: true } : {}),
  });
  const booted = settledWithin(deck.settled, untilBootWait());
  const stopWarnings = warnOnceBooted(cli, deck, booted);
  const close = async () => {
    stopWarnings();
    unregister();
    await deck.close();
  };
  const unregister = onTeardown(() => {
    stopWarnings();
    return deck.close();
  });
  warnDiagnostics(cli, deck.diagnostics);
  return {
    cli,
    deck,
    box: gatewayBox(deck.box, options.profile, (name) => deck.origin(name)),
    instructions: () => gatewayInstructions(deck.mcp.servers(), names) || undefined,
    booted,
    refuseClashes: () => refuseClashes(deck),
    close,
  };
}

/**
 * What the gateway tells its clients about the mounted servers, worded for
 * how their tools are named, each server's own words fenced as its (see
 * `server-text.ts`). Built from the servers settled when serving
 * starts: instructions are sent once, at initialize, so a server that joins
 * after the boot wait adds none.
 */
export function gatewayInstructions(servers: readonly ServerReport[], names: Names): string {
  const speaking = servers.filter((s) => s.instructions);
  if (names === "as-is") {
    // One server: the gateway stands in for it, so its own words go out unchanged.
    if (speaking.length === 1 && servers.length === 1) return speaking[0]!.instructions!;
    return speaking.map((s) => quoted(`The "${s.id}" server (its tools keep their own names)`, s)).join("\n\n");
  }
  return speaking.map((s) => quoted(`Tools named ${s.id}__* come from the "${s.id}" server`, s)).join("\n\n");
}

/** A server's instructions as its own quoted words under `heading` (never as the gateway's own). */
function quoted(heading: string, server: ServerReport): string {
  const said = quotedServerText(server.instructions ?? "", MAX_SERVER_INSTRUCTIONS);
  return [`${heading}; its notes, in its own words:`, ...fenceServerText(server.id, [said])].join("\n");
}

function say(line: string): void {
  process.stderr.write(`indusr: ${line}\n`);
}

/**
 * As-is naming: the clashes standing when serving starts (the servers
 * settled by then, or the boot wait passed) stop the gateway (a client
 * calling a name must reach the server it expects); later ones (a list
 * change, a server joining after the boot wait) keep the first server's
 * item, with a warning.
 */
async function refuseClashes(deck: BootedDeck): Promise<boolean> {
  const standing: readonly ProtocolFault[] = (await deck.names?.standing()) ?? [];
  if (standing.length === 0) {
    deck.names?.onClash((fault) => {
      const kept = nameClashOf(fault)?.servers[0];
      const keeper =
        kept === BUILT_IN
          ? "the built-in keeps it"
          : kept === undefined
            ? "the first server keeps it"
            : `"${kept}" keeps it`;
      say(`warning: ${fault.message}; ${keeper}`);
    });
    return false;
  }
  for (const fault of standing) say(`cannot serve with --names as-is: ${fault.message}`);
  say("rename or filter one of them (includeTools/excludeTools in its config), or serve with --names prefixed");
  return true;
}

/**
 * Servers still connecting when the boot wait ended (`servers`, as they stood
 * then) and failing afterwards get the boot's warning, once each, as each
 * settles. Returns a stop for shutdown: closing the gateway ends the
 * stragglers' connects, which is no failure of theirs.
 */
function warnLateFailures(
  deck: BootedDeck,
  servers: readonly ServerReport[],
  warn: (servers: readonly ServerReport[]) => void,
): () => void {
  const pending = new Set(servers.filter((s) => s.phase !== "ready" && s.phase !== "faulted").map((s) => s.id));
  if (pending.size === 0 || !deck.settled) return () => undefined;
  let stopped = false;
  // The warning names only those that failed (or connected but could not list their tools).
  const settle = (ids: readonly string[]) => {
    const settling = ids.filter((id) => pending.delete(id));
    if (!stopped && settling.length > 0) warn(deck.mcp.servers().filter((s) => settling.includes(s.id)));
  };
  const off = deck.onServerSettled?.((server) => settle([server]));
  void deck.settled.then(() => {
    off?.();
    settle([...pending]);
  });
  return () => {
    stopped = true;
    off?.();
  };
}

/**
 * Settles once every mounted server settled or `ms` passed: what listings and
 * calls wait for (the handshake never does; later servers join by list_changed).
 */
function settledWithin(settled: Promise<void> | undefined, ms: number): Promise<void> {
  if (settled === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    void settled.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/**
 * The boot's warnings once the boot wait is over, for the servers as they
 * stand then; later failures and trust notes as they happen. Returns a stop.
 */
function warnOnceBooted(cli: CliEnv, deck: BootedDeck, booted: Promise<void>): () => void {
  let stops: (() => void)[] = [];
  let stopped = false;
  void booted.then(() => {
    if (stopped) return;
    const servers = deck.mcp.servers();
    stops = [
      warnLateFailures(deck, servers, (late) => warnFailedServers(cli, late)),
      announceTrust(deck.trust, (level, line) => say(`${level}: ${line}`)),
    ];
    warnFailedServers(cli, servers);
    warnTrust(cli, servers);
    warnUnshippedPins(cli, deck);
  });
  return () => {
    stopped = true;
    for (const stop of stops) stop();
  };
}
