/**
 * `indusr mcp pins [server]`: what is pinned for each configured server, read
 * from the lock file beside its config, without connecting anything: the
 * lock file, each kind's pinned names and the start of each digest. `--json`
 * gives the same per server. Connecting to see what changed is `mcp status`.
 */
import { DEFINITION_KINDS, type DefinitionKind } from "@indus/contract";
import { resolveMcpConfig } from "@indus/deck";
import { cliEnv } from "../cli-env";
import { EXIT, UsageError } from "../exit";
import { LockFiles, lockFileOf } from "../trust/lock-files";

interface PinsFlags {
  readonly cwd?: string;
  readonly json?: boolean;
  readonly mcp?: string[];
}

interface ServerPinsView {
  readonly server: string;
  readonly trust: string;
  readonly lockFile: string | null;
  readonly pins: Partial<Record<DefinitionKind, Record<string, string>>>;
}

export async function mcpPinsCommand(server: string | undefined, flags: PinsFlags): Promise<number> {
  const cli = cliEnv(flags);
  const config = resolveMcpConfig(flags.mcp ? { mcp: flags.mcp } : {}, cli.cwd, { env: cli.env });
  const servers = config.servers.filter((s) => server === undefined || s.id === server);
  if (server !== undefined && servers.length === 0)
    throw new UsageError(`no MCP server "${server}" is configured here`);
  const lockFiles = new LockFiles({ configOf: (id) => config.origins.get(id)?.file, readOnly: true });
  const views = servers.map((s): ServerPinsView => {
    const origin = config.origins.get(s.id)?.file;
    const pinned = lockFiles.read(s.id) ?? {};
    const pins: ServerPinsView["pins"] = {};
    for (const kind of DEFINITION_KINDS) {
      const kindPins = pinned[kind];
      if (kindPins) pins[kind] = Object.fromEntries(Object.entries(kindPins).map(([name, pin]) => [name, pin.digest]));
    }
    return { server: s.id, trust: s.trust ?? "pin", lockFile: origin ? lockFileOf(origin) : null, pins };
  });
  process.stdout.write(flags.json ? `${JSON.stringify(views, null, 2)}\n` : `${views.flatMap(pinLines).join("\n")}\n`);
  return EXIT.ok;
}

function pinLines(view: ServerPinsView): string[] {
  const head = `${view.server} (trust: ${view.trust}${view.lockFile ? `, ${view.lockFile}` : ""})`;
  const kinds = Object.entries(view.pins) as [DefinitionKind, Record<string, string>][];
  if (kinds.length === 0) return [head, "  nothing pinned yet (pinned when first listed)", ""];
  const lines = [head];
  for (const [kind, pins] of kinds) {
    lines.push(`  ${kind}s: ${Object.keys(pins).length === 0 ? "(none listed)" : ""}`);
    for (const [name, digest] of Object.entries(pins)) lines.push(`    ${name}  ${digest.slice(0, 12)}`);
  }
  return [...lines, ""];
}
