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
import { serveHttp, serveStdio } from "@indus/provider-host";
import { cliEnv } from "../cli-env";
import { EXIT, UsageError } from "../exit";
import { lateBox } from "../boot/late-box";
import { lateClientHost } from "../boot/late-client-host";
import { endProcess, whenSignalled } from "../teardown";
import { VERSION } from "../version";
import { gatewayOptionsOf, readinessOf } from "./serve-gateway";
import type { Names, ServeSetup, ServedDeck } from "./served-deck";
import type { ServeFlags } from "./serve-flags";

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

function namesOf(value: string | undefined): Names {
  if (value === undefined || value === "prefixed" || value === "as-is") return value ?? "prefixed";
  throw new UsageError(`--names must be prefixed or as-is, not "${value}"`);
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

const INFO = { name: "indusr", version: VERSION };

/** The served deck's module, loaded only once serving has begun (see `served-deck.ts`). */
const servedDeck = () => import("./served-deck");

export async function mcpServeCommand(flags: ServeFlags): Promise<number> {
  const { port, names, builtins } = checkedServeFlags(flags);
  const setup: ServeSetup = {
    names,
    builtins,
    bootWaitMs: bootWaitOf(flags.bootWait, cliEnv(flags).env),
    clientHost: lateClientHost(),
  };
  if (flags.http) return serveOverHttp(flags, setup, port);
  // As-is names: the clashes standing at the boot wait decide whether to serve at all.
  if (names === "as-is") return serveAfterBoot(flags, setup);
  return serveBeforeBoot(flags, setup);
}

/**
 * Stdio, prefixed names: the host answers the handshake before anything else
 * loads (a client's startup probe times the whole launch). The deck, the MCP
 * client side and the mounts load once the client's first message has been
 * answered; the box served meanwhile is bound to the booted deck's, and
 * listings and calls wait for the boot (up to the boot wait, counted from the
 * process's start).
 */
async function serveBeforeBoot(flags: ServeFlags, setup: ServeSetup): Promise<number> {
  const late = lateBox(flags.noTools !== true && flags.tools !== false);
  const boot = whenToBoot();
  const booting = boot.start
    .then(servedDeck)
    .then(({ bootServedDeck }) => bootServedDeck(flags, setup))
    .then((served) => {
      late.bind(served.box);
      return served;
    });
  let served: ServedDeck | undefined;
  void booting.then((deck) => (served = deck), ignore);
  const boxReady = booting.then((deck) => deck.booted);
  // A failed boot fails the requests waiting for it (and the command, below), never the process.
  boxReady.catch(ignore);
  const running = await serveStdio(late.box, { info: INFO, instructions: () => served?.instructions(), boxReady });
  setup.clientHost.bind(running.clientHooks);
  boot.serving();
  const ended = Promise.race([running.waiting(), whenSignalled()]);
  try {
    // A boot that fails (a bad --mcp file, say) ends serving with its error.
    await Promise.race([ended, booting]);
    await ended;
    await running.cancel();
    return EXIT.ok;
  } catch (error) {
    await running.cancel();
    throw error;
  } finally {
    // A client that left while the deck was still booting: what it started is closed once it has.
    const deck = served ?? (bootStarted ? await booting.catch(ignore) : undefined);
    await deck?.close();
  }
}

/** Set once the deck started booting. */
let bootStarted = false;

/**
 * When the deck starts booting: once the client's first bytes have been
 * handled (their data event comes in a poll phase and the handshake's answer
 * is written within it; the boot starts in the check phase after), or, when
 * nothing was on stdin as serving began, after the next poll phase: the
 * mounts start without waiting for a client that has not spoken yet.
 */
function whenToBoot(): { readonly start: Promise<void>; serving(): void } {
  let begin = (): void => undefined;
  const start = new Promise<void>((resolve) => (begin = resolve)).then(() => {
    bootStarted = true;
  });
  process.stdin.once("data", () => setImmediate(begin));
  // Twice: the first check phase may come before stdin was ever polled (serving began in a poll callback).
  return { start, serving: () => setImmediate(() => setImmediate(begin)) };
}

function ignore(): void {}

/** Stdio, as-is names: boot (up to the boot wait) first, refuse standing clashes, then serve. */
async function serveAfterBoot(flags: ServeFlags, setup: ServeSetup): Promise<number> {
  const input = watchedStdin();
  const served = await (await servedDeck()).bootServedDeck(flags, setup);
  try {
    if (await served.refuseClashes()) return EXIT.failed;
    const running = await serveStdio(served.box, {
      info: INFO,
      stdin: input.take(),
      instructions: served.instructions,
      boxReady: served.booted,
    });
    setup.clientHost.bind(running.clientHooks);
    await Promise.race([running.waiting(), whenSignalled()]);
    await running.cancel();
    return EXIT.ok;
  } finally {
    await served.close();
  }
}

async function serveOverHttp(flags: ServeFlags, setup: ServeSetup, port: number): Promise<number> {
  const served = await (await servedDeck()).bootServedDeck(flags, setup);
  const { cli, deck, box } = served;
  try {
    if (setup.names === "as-is" && (await served.refuseClashes())) return EXIT.failed;
    const host = await serveHttp(box, {
      info: INFO,
      host: flags.host,
      port,
      tokenEnv: flags.tokenEnv,
      env: cli.env,
      ...(flags.stateless ? { stateless: true } : {}),
      ...(flags.sessionPrefix !== undefined ? { sessionIdPrefix: flags.sessionPrefix } : {}),
      ...(flags.allowedHosts !== undefined
        ? { allowedHosts: allowedHostsOf(flags.allowedHosts, flags.host, port) }
        : {}),
      instructions: served.instructions,
      boxReady: served.booted,
      ...gatewayOptionsOf(flags, deck, cli.cwd, cli.env),
      ready: readinessOf(deck),
    }).catch((error: Error) => {
      throw new UsageError(error.message);
    });
    setup.clientHost.bind(host.clientHooks);
    process.stderr.write(`indusr: serving over MCP at ${host.url.href} (Ctrl-C to stop)\n`);
    void served.booted.then(() => process.stderr.write(`indusr: ${box.descriptors().length} tools published\n`));
    await whenSignalled();
    await host.close();
    return EXIT.ok;
  } finally {
    await served.close();
  }
}
