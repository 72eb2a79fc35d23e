/**
 * `indusr mcp serve`: the deck plus every mounted server, published as one MCP
 * server. The serving default is the `authoring` profile (read-only
 * built-ins, and only the mounted tools annotated `readOnlyHint: true`), so
 * mutating tools are exposed only when asked for (`--profile survey`). Mounted
 * servers' resources and prompts are republished too, namespaced unless
 * `--names as-is`; `--no-builtins` leaves only the mounted servers, so the
 * gateway can stand in for them. The mounted servers' own requests
 * (elicitation, sampling, roots) go to the gateway's clients.
 */
import { PassThrough } from "node:stream";
import type { Readable } from "node:stream";
import type { ProtocolFault } from "@indus/contract";
import { nameClashOf } from "@indus/fleet";
import { serveHttp, serveStdio } from "@indus/provider-host";
import type { BootedDeck, ServerReport } from "../boot/boot-types";
import { EXIT, UsageError } from "../exit";
import { lateClientHost } from "../boot/late-client-host";
import { BUILT_IN } from "../boot/name-clashes";
import { endProcess, onTeardown, whenSignalled } from "../teardown";
import type { CliEnv } from "../cli-env";
import { VERSION } from "../version";
import { gatewayOptionsOf, readinessOf } from "./serve-gateway";
import type { GatewayFlags } from "./serve-gateway-flags";
import { gatewayBox } from "./gateway-profile";
import { MAX_SERVER_INSTRUCTIONS, fenceServerText, quotedServerText } from "../trust/server-text";
import { announceTrust } from "../trust/trust-lines";
import {
  bootOptionsOf,
  warnDiagnostics,
  warnFailedServers,
  warnTrust,
  warnUnshippedPins,
  type DeckFlags,
} from "./shared";

interface ServeFlags extends DeckFlags, GatewayFlags {
  readonly stdio?: boolean;
  readonly http?: boolean;
  readonly host: string;
  readonly port: string;
  readonly tokenEnv: string;
  readonly stateless?: boolean;
  readonly sessionPrefix?: string;
  readonly allowedHosts?: string;
  readonly names?: string;
  /** Commander folds `--no-builtins` into `builtins: false`. */
  readonly builtins?: boolean;
  readonly bootWait?: string;
}

/**
 * `--boot-wait`: how long after the process starts serving waits for the
 * mounted servers. 3 s by default, well inside the 10 s Codex gives a server
 * to start, so a server that hangs at startup never holds the healthy ones,
 * or the gateway, for its whole startup timeout. (Claude Code 2.1.330 waits
 * ~2.9 s for its `server/discover` probe before it sends `initialize`: a
 * shorter wait keeps it in the 2026-07-28 era when a mount is slow, at the
 * cost of that mount's tools arriving by list_changed.)
 * `INDUSR_BOOT_WAIT_MS` sets it when the flag is not given.
 */
function bootWaitOf(flag: string | undefined, env: NodeJS.ProcessEnv): number {
  const [name, value] = flag !== undefined ? ["--boot-wait", flag] : ["INDUSR_BOOT_WAIT_MS", env.INDUSR_BOOT_WAIT_MS];
  if (value === undefined) return 3_000;
  const ms = Number(value);
  if (value.trim() === "" || !Number.isInteger(ms) || ms < 0)
    throw new UsageError(`${name} must be a whole number of milliseconds (0 or more), not "${value}"`);
  return ms;
}

type Names = "prefixed" | "as-is";

function namesOf(value: string | undefined): Names {
  if (value === undefined || value === "prefixed" || value === "as-is") return value ?? "prefixed";
  throw new UsageError(`--names must be prefixed or as-is, not "${value}"`);
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

/** The bound address's own loopback names stay allowed next to the listed ones. */
function allowedHostsOf(list: string, host: string, port: number): string[] {
  const extra = list
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  if (port === 0) return extra;
  return [...extra, `${host}:${port}`, `localhost:${port}`, `127.0.0.1:${port}`];
}

function portOf(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--port must be 0-65535, not "${value}"`);
  return port;
}

/**
 * Stdin, read from the start: a client that hangs up while servers are still
 * connecting ends the gateway at once (nothing left behind), and what it sent
 * early waits in a buffer. Once booted, the protocol reads `process.stdin`
 * itself, the early bytes put back in front (a pass-through stream in
 * between would cost every message a stream hop).
 */
function watchedStdin(): { take(): Readable } {
  const early = new PassThrough();
  let booting = true;
  process.stdin.once("end", () => {
    if (booting) void endProcess(EXIT.ok);
  });
  process.stdin.pipe(early);
  return {
    take: () => {
      booting = false;
      // Ended while booting: what was sent, and the end, are in the buffer.
      if (process.stdin.readableEnded) return early;
      process.stdin.unpipe(early);
      const chunks: Buffer[] = [];
      for (let chunk: Buffer | null; (chunk = early.read() as Buffer | null) !== null;) chunks.push(chunk);
      if (chunks.length > 0) process.stdin.unshift(Buffer.concat(chunks));
      return process.stdin;
    },
  };
}

/** The flags that must agree before anything boots: the port, how names are published, built-ins on or off. */
function checkedServeFlags(flags: ServeFlags) {
  if (flags.stdio && flags.http) throw new UsageError("choose --stdio or --http, not both");
  const port = portOf(flags.port);
  if (flags.sessionPrefix !== undefined && !/^[\x21-\x7e]{1,32}$/.test(flags.sessionPrefix)) {
    throw new UsageError("--session-prefix must be 1-32 visible ASCII characters");
  }
  const builtins = flags.builtins !== false;
  if (!builtins && Array.isArray(flags.tools))
    throw new UsageError("--tools picks built-ins: it cannot go with --no-builtins");
  return { port, names: namesOf(flags.names), builtins };
}

export async function mcpServeCommand(flags: ServeFlags): Promise<number> {
  const { port, names, builtins } = checkedServeFlags(flags);
  // stdout carries the protocol in stdio mode: nothing else may write to it.
  const { cli, options } = bootOptionsOf({ ...flags, json: true }, "authoring");
  const bootWaitMs = bootWaitOf(flags.bootWait, cli.env);
  const input = flags.http ? undefined : watchedStdin();
  const { bootDeck } = await import("../boot/boot");
  const clientHost = lateClientHost();
  // Counted from the process's start: a client's startup probe times the whole launch, loading included.
  const untilBootWait = () => Math.max(0, bootWaitMs - Math.round(performance.now()));
  const deck = await bootDeck({
    ...options,
    names,
    builtins,
    // The handshake goes out at once; only as-is names wait, as the clashes standing then decide whether to serve.
    bootWaitMs: names === "as-is" ? untilBootWait() : 0,
    clientHost: clientHost.hooks,
    // A replica runs what the shipped lock files pin, and never pins on its own.
    ...(flags.stateless ? { readOnlyPins: true } : {}),
  });
  const booted = settledWithin(deck.settled, untilBootWait());
  const stopWarnings = warnOnceBooted(cli, deck, booted);
  const unregister = onTeardown(() => {
    stopWarnings();
    return deck.close();
  });
  warnDiagnostics(cli, deck.diagnostics);
  const box = gatewayBox(deck.box, options.profile, (name) => deck.origin(name));
  // Read at each handshake: the servers connected by then speak.
  const instructions = () => gatewayInstructions(deck.mcp.servers(), names) || undefined;
  const info = { name: "indusr", version: VERSION };
  try {
    if (names === "as-is" && (await refuseClashes(deck))) return EXIT.failed;
    if (flags.http) {
      const host = await serveHttp(box, {
        info,
        host: flags.host,
        port,
        tokenEnv: flags.tokenEnv,
        env: cli.env,
        ...(flags.stateless ? { stateless: true } : {}),
        ...(flags.sessionPrefix !== undefined ? { sessionIdPrefix: flags.sessionPrefix } : {}),
        ...(flags.allowedHosts !== undefined
          ? { allowedHosts: allowedHostsOf(flags.allowedHosts, flags.host, port) }
          : {}),
        instructions,
        boxReady: booted,
        ...gatewayOptionsOf(flags, deck, cli.cwd, cli.env),
        ready: readinessOf(deck),
      }).catch((error: Error) => {
        throw new UsageError(error.message);
      });
      clientHost.bind(host.clientHooks);
      process.stderr.write(`indusr: serving over MCP at ${host.url.href} (Ctrl-C to stop)\n`);
      void booted.then(() => say(`${box.descriptors().length} tools published`));
      await whenSignalled();
      await host.close();
      return EXIT.ok;
    }
    const running = await serveStdio(box, {
      info,
      ...(input ? { stdin: input.take() } : {}),
      instructions,
      boxReady: booted,
    });
    clientHost.bind(running.clientHooks);
    await Promise.race([running.waiting(), whenSignalled()]);
    await running.cancel();
    return EXIT.ok;
  } finally {
    stopWarnings();
    unregister();
    await deck.close();
  }
}
