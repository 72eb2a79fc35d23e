/**
 * The environment a command runs in, read once: working directory, home,
 * XDG root, terminal capabilities. Tests point HOME and XDG_CONFIG_HOME at
 * temp folders; nothing else reads `process.env` for these.
 */
import os from "node:os";
import path from "node:path";

export interface CliEnv {
  readonly cwd: string;
  readonly home: string;
  readonly xdgConfigHome?: string | undefined;
  readonly env: NodeJS.ProcessEnv;
  readonly stderrIsTty: boolean;
  readonly color: boolean;
}

export function cliEnv(options: { cwd?: unknown } = {}): CliEnv {
  const env = process.env;
  const home = env.HOME && env.HOME.length > 0 ? env.HOME : os.homedir();
  const stderrIsTty = Boolean(process.stderr.isTTY);
  return {
    cwd: typeof options.cwd === "string" && options.cwd.length > 0 ? path.resolve(options.cwd) : process.cwd(),
    home,
    xdgConfigHome: env.XDG_CONFIG_HOME && env.XDG_CONFIG_HOME.length > 0 ? env.XDG_CONFIG_HOME : undefined,
    env,
    stderrIsTty,
    color: stderrIsTty && env.NO_COLOR === undefined && env.TERM !== "dumb",
  };
}

/** Where session files live unless `--session-dir` says otherwise. */
export function defaultSessionDir(cli: CliEnv): string {
  return path.join(cli.home, ".indusvx", "sessions");
}

/**
 * Where state that outlives a run but is no config lives (XDG base dirs):
 * `$XDG_STATE_HOME/indusr`, else `~/.local/state/indusr`.
 */
export function stateDir(
  env: NodeJS.ProcessEnv,
  home: string = env.HOME && env.HOME.length > 0 ? env.HOME : os.homedir(),
): string {
  const root =
    env.XDG_STATE_HOME && env.XDG_STATE_HOME.length > 0 ? env.XDG_STATE_HOME : path.join(home, ".local", "state");
  return path.join(root, "indusr");
}

/** Where MCP servers' negotiated protocol eras are remembered between runs. */
export function eraVerdictFile(env: NodeJS.ProcessEnv): string {
  return path.join(stateDir(env), "mcp-eras.json");
}

/**
 * Where MCP server stderr logs go unless `--log-dir` says otherwise: the
 * user's state folder (`$XDG_STATE_HOME/indusr/logs`, else
 * `~/.local/state/indusr/logs`), or `<session-dir>/logs` when one is given.
 */
export function defaultLogDir(cli: CliEnv, sessionDir?: string): string {
  if (sessionDir !== undefined) return path.join(sessionDir, "logs");
  const state = cli.env.XDG_STATE_HOME;
  return path.join(state && state.length > 0 ? state : path.join(cli.home, ".local", "state"), "indusr", "logs");
}
