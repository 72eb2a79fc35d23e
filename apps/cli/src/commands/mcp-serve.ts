/**
 * `indusr mcp serve`: the deck plus every mounted server, published as one MCP
 * server. The serving default is the `authoring` profile (read-only
 * built-ins), so mutating tools are exposed only when asked for. Mounted
 * servers' resources and prompts are republished too, namespaced.
 */
import { PassThrough } from "node:stream";
import { serveHttp, serveStdio } from "@indus/provider-host";
import { EXIT, UsageError } from "../exit";
import { endProcess, onTeardown, whenSignalled } from "../teardown";
import { VERSION } from "../version";
import { bootOptionsOf, warnDiagnostics, warnFailedServers, type DeckFlags } from "./shared";

interface ServeFlags extends DeckFlags {
  readonly stdio?: boolean;
  readonly http?: boolean;
  readonly host: string;
  readonly port: string;
  readonly tokenEnv: string;
  readonly stateless?: boolean;
  readonly sessionPrefix?: string;
  readonly allowedHosts?: string;
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
 * early waits in the buffer for the protocol.
 */
function watchedStdin(): { stdin: PassThrough; booted(): void } {
  const stdin = new PassThrough();
  let booting = true;
  process.stdin.once("end", () => {
    if (booting) void endProcess(EXIT.ok);
  });
  process.stdin.pipe(stdin);
  return {
    stdin,
    booted: () => {
      booting = false;
    },
  };
}

export async function mcpServeCommand(flags: ServeFlags): Promise<number> {
  if (flags.stdio && flags.http) throw new UsageError("choose --stdio or --http, not both");
  const port = portOf(flags.port);
  if (flags.sessionPrefix !== undefined && !/^[\x21-\x7e]{1,32}$/.test(flags.sessionPrefix)) {
    throw new UsageError("--session-prefix must be 1-32 visible ASCII characters");
  }
  // stdout carries the protocol in stdio mode: nothing else may write to it.
  const { cli, options } = bootOptionsOf({ ...flags, json: true }, "authoring");
  const input = flags.http ? undefined : watchedStdin();
  const { bootDeck } = await import("../boot");
  const deck = await bootDeck(options);
  const unregister = onTeardown(() => deck.close());
  warnDiagnostics(cli, deck.diagnostics);
  warnFailedServers(cli, deck.servers);
  const box = deck.box;
  const instructions = deck.servers
    .filter((s) => s.instructions)
    .map((s) => `Tools named ${s.id}__* come from the "${s.id}" server: ${s.instructions}`)
    .join("\n\n");
  const info = { name: "indusr", version: VERSION };
  try {
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
        ...(instructions ? { instructions } : {}),
      }).catch((error: Error) => {
        throw new UsageError(error.message);
      });
      process.stderr.write(
        `indusr: serving ${box.descriptors().length} tools over MCP at ${host.url.href} (Ctrl-C to stop)\n`,
      );
      await whenSignalled();
      await host.close();
      return EXIT.ok;
    }
    const running = await serveStdio(box, {
      info,
      ...(input ? { stdin: input.stdin } : {}),
      ...(instructions ? { instructions } : {}),
    });
    input?.booted();
    await Promise.race([running.waiting(), whenSignalled()]);
    await running.cancel();
    return EXIT.ok;
  } finally {
    unregister();
    await deck.close();
  }
}
