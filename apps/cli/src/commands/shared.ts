/**
 * What the deck-using commands share: turning parsed flags into boot options,
 * the live progress sink, and printing config diagnostics and failed servers
 * as warnings (on stderr, so `--json` output stays clean).
 */
import { announceTrust, trustLines, unshippedLine } from "../trust/trust-lines";
import type { ServerConfig } from "@indus/contract";
import type { DelegateRunner, Profile } from "@indus/deck";
import type { BootedDeck, ConfigDiagnostic, ServerReport } from "../boot/boot-types";
import type { ConnectedMcp } from "../boot/connect-mcp";
import { cliEnv, defaultLogDir, type CliEnv } from "../cli-env";
import { canAsk } from "../config/config-load";
import { findFlag } from "../flags";
import { UsageError } from "../exit";
import { silentProgress, terminalProgress, type ProgressSink } from "../boot/progress";
import { diagnosticLines, failedServerLines } from "../boot/startup-warnings";
import { onTeardown, setExitCode } from "../teardown";

export interface DeckFlags {
  readonly mcp?: string[];
  readonly tools?: string[] | boolean;
  readonly noTools?: boolean;
  readonly profile?: string;
  readonly cwd?: string;
  readonly logDir?: string;
  readonly sessionDir?: string;
  readonly json?: boolean;
  /** Only `tools` and the agent take it; other commands show every MCP tool. */
  readonly mcpToolBudget?: number;
}

/** The choices come from the flag table (not the contract) so this path never loads zod. */
const PROFILE_CHOICES: readonly string[] = findFlag("profile").choices ?? [];

export function profileOf(flags: DeckFlags, fallback: Profile): Profile {
  if (flags.profile === undefined) return fallback;
  if (!PROFILE_CHOICES.includes(flags.profile))
    throw new UsageError(`--profile must be authoring, survey or all, not "${flags.profile}"`);
  return flags.profile as Profile;
}

/** Commander folds `--no-tools` into `tools: false`; both spellings mean "none". */
export function noToolsOf(flags: DeckFlags): boolean {
  return flags.noTools === true || flags.tools === false;
}

export function toolListOf(flags: DeckFlags): string[] | undefined {
  return Array.isArray(flags.tools) ? flags.tools : undefined;
}

export function progressFor(cli: CliEnv, flags: DeckFlags): ProgressSink {
  return cli.stderrIsTty && !flags.json ? terminalProgress(process.stderr, { color: cli.color }) : silentProgress;
}

export function bootOptionsOf(flags: DeckFlags, fallbackProfile: Profile) {
  const cli = cliEnv(flags);
  const tools = toolListOf(flags);
  return {
    cli,
    options: {
      cwd: cli.cwd,
      profile: profileOf(flags, fallbackProfile),
      ...(tools ? { tools } : {}),
      noTools: noToolsOf(flags),
      ...(flags.mcp ? { mcp: flags.mcp } : {}),
      logDir: flags.logDir ?? defaultLogDir(cli, flags.sessionDir),
      ...(flags.sessionDir ? { sessionDir: flags.sessionDir } : {}),
      env: cli.env,
      ...(flags.mcpToolBudget !== undefined ? { mcpToolBudget: flags.mcpToolBudget } : {}),
      progress: progressFor(cli, flags),
      interactive: !flags.json && canAsk(),
    },
  };
}

export function paint(cli: CliEnv, code: string, text: string): string {
  return cli.color ? `\x1b[${code}m${text}\x1b[0m` : text;
}

export function warnDiagnostics(cli: CliEnv, diagnostics: readonly ConfigDiagnostic[]): void {
  for (const line of diagnosticLines(diagnostics)) process.stderr.write(`${paint(cli, "33", "warning")}: ${line}\n`);
}

export function warnFailedServers(cli: CliEnv, servers: readonly ServerReport[]): void {
  for (const line of failedServerLines(servers)) process.stderr.write(`${paint(cli, "33", "warning")}: ${line}\n`);
}

/** Definitions the trust gate withheld ("changed since pinned", new, refused) or flagged, one warning each. */
export function warnTrust(cli: CliEnv, servers: readonly ServerReport[]): void {
  for (const server of servers)
    for (const line of trustLines(server.id, server.trust))
      process.stderr.write(`${paint(cli, "33", "warning")}: ${line}\n`);
}

/** On a stateless replica, each server whose lock file pins nothing for it (all it lists is withheld), one warning each. */
export function warnUnshippedPins(cli: CliEnv, deck: BootedDeck): void {
  for (const unshipped of deck.trust?.unshippedPins() ?? [])
    process.stderr.write(`${paint(cli, "33", "warning")}: ${unshippedLine(unshipped)}\n`);
}

/** Boot, warn, run `body`, and always tear the servers down. */
export async function withDeck<T>(
  flags: DeckFlags,
  fallbackProfile: Profile,
  body: (deck: BootedDeck, cli: CliEnv) => Promise<T>,
  extra: {
    readonly delegate?: DelegateRunner;
    /** Connect only these of the configured servers (a one-shot call: the tool's owner). */
    readonly selectServers?: (servers: readonly ServerConfig[]) => readonly ServerConfig[];
    /** Deferred servers' tools in the box too (a one-shot call). */
    readonly offerDeferred?: boolean;
    /** The user's `websearch` settings (`indusr tools` names the backend the agent would use). */
    readonly webSearch?: {
      readonly searxngUrl?: string;
      readonly braveApiKey?: string;
      readonly tavilyApiKey?: string;
    };
  } = {},
): Promise<T> {
  const { cli, options: base } = bootOptionsOf(flags, fallbackProfile);
  const options = { ...base, ...extra };
  // A --no-tools session never loads the deck.
  const deck = options.noTools
    ? (await import("../boot/empty-deck")).emptyDeck()
    : await (await import("../boot/boot")).bootDeck(options);
  // A signal closes the deck's HTTP sessions too (its stdio servers close through the endpoint).
  const unregister = onTeardown(() => deck.close());
  // What the gate withholds after start-up (a definition changed mid-run) is said as it happens.
  const stopAnnouncing = announceTrust(deck.trust, (level, line) =>
    process.stderr.write(`${paint(cli, "33", level)}: ${line}\n`),
  );
  try {
    warnDiagnostics(cli, deck.diagnostics);
    warnFailedServers(cli, deck.servers);
    warnTrust(cli, deck.servers);
    const result = await body(deck, cli);
    // The exit code is known before teardown starts, so nothing during it can lose it.
    if (typeof result === "number") setExitCode(result);
    return result;
  } finally {
    stopAnnouncing();
    unregister();
    await deck.close();
  }
}

/**
 * Connect every configured server (no deck), warn about the config, run
 * `body`, and always tear the servers down, promptly: the frame of the
 * commands that report on servers (`mcp status`, `mcp skills`).
 */
export async function withServers<T>(
  flags: DeckFlags,
  body: (connected: ConnectedMcp, cli: CliEnv, options: ReturnType<typeof bootOptionsOf>["options"]) => Promise<T>,
  extra: { readonly screenCatalogs?: boolean } = {},
): Promise<T> {
  const { cli, options } = bootOptionsOf(flags, "all");
  const { connectMcp } = await import("../boot/connect-mcp");
  const connected = await connectMcp({ ...options, ...extra });
  const unregister = onTeardown(() => connected.mcp.tearDown());
  try {
    warnDiagnostics(cli, connected.diagnostics);
    return await body(connected, cli, options);
  } finally {
    unregister();
    // These commands only list: their servers have nothing left to finish, so SIGTERM goes with the
    // stdin end (a server that keeps running after EOF would hold the command for the whole grace).
    const { closeAllServerProcesses } = await import("@indus/endpoint");
    await closeAllServerProcesses({ promptly: true });
    await connected.mcp.tearDown();
  }
}
