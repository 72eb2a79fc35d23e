/**
 * The environment a stdio server's process starts with: the user's whole
 * environment by default (as Claude Code and opencode pass it), or a safe
 * subset plus an allow-list (`inheritEnv: false`, Codex's `env_vars`).
 */
import { getDefaultEnvironment } from "@modelcontextprotocol/client/stdio";

/**
 * With `inheritEnv: false` or an `env_vars` allow-list: beyond the SDK's safe
 * defaults (HOME, LOGNAME, PATH, SHELL, TERM, USER), variables a server
 * launcher commonly needs. Not NODE_EXTRA_CA_CERTS: Node
 * parses that bundle eagerly at startup (~100 ms per process here), which a
 * fleet of Node servers pays many times over; a server that needs it gets it
 * through its config's `env`.
 */
const EXTRA_INHERITED_ENV = [
  "TMPDIR",
  "LANG",
  "LC_ALL",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
];

/** Which of the user's environment a server inherits. */
export interface InheritedEnv {
  /** False: only the safe subset (and `names`). Default true, as Claude Code and opencode pass it all. */
  readonly inherit?: boolean | undefined;
  /** An allow-list (Codex's `env_vars`): only the safe subset and these names. */
  readonly names?: readonly string[] | undefined;
}

/** Shell-exported functions (`BASH_FUNC_x%%=() { …`) are no variables a server reads. */
const isUsable = (value: string | undefined): value is string => value !== undefined && !value.startsWith("()");

/**
 * The environment a server gets: the user's whole environment by default, or
 * a safe subset plus an allow-list; the config's own `env` on top.
 */
export function serverEnvironment(
  extra: Readonly<Record<string, string>>,
  policy: InheritedEnv = {},
  from: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  if (policy.inherit !== false && policy.names === undefined) {
    for (const [key, value] of Object.entries(from)) if (isUsable(value)) env[key] = value;
    return { ...env, ...extra };
  }
  Object.assign(env, getDefaultEnvironment());
  for (const key of [...EXTRA_INHERITED_ENV, ...(policy.names ?? [])]) {
    const value = from[key];
    if (isUsable(value)) env[key] = value;
  }
  return { ...env, ...extra };
}
