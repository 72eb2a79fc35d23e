/**
 * Secrets never reach a terminal: `mcp list/get/show-merged` print env and
 * header values through here. A `${VAR}` reference is not a secret and stays.
 */
const SECRET_KEY = /(token|secret|pass(word|wd)?|api[-_]?key|auth|credential|cookie|session|private|bearer|signature)/i;
const SECRET_VALUE = /^(sk-|sk_|ghp_|gho_|github_pat_|xox[abpr]-|glpat-|AKIA|AIza|eyJ)|^Bearer\s/i;
const REFERENCE = /^\$\{[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\}$/;

export const REDACTED = "***";

/** `scheme://user:password@` (or `scheme://token@`) anywhere in a string. */
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s:@/]+)(?::([^\s@/]*))?@/gi;
/** `name=value` or `name: value` whose name says secret, e.g. `DB_PASSWORD=x`, `--api-key=x`, `?token=x`. */
const SECRET_PAIR =
  /([A-Za-z0-9_.-]*(?:token|secret|pass(?:word|wd)?|api[-_]?key|auth|credential|cookie|session|private|signature)[A-Za-z0-9_.-]*)(=|:\s*)([^\s&;,'"]+)/gi;
/** Well-known token shapes anywhere in a string. */
const TOKEN_ANYWHERE = /\b(?:sk-|sk_|ghp_|gho_|github_pat_|xox[abpr]-|glpat-|AKIA|AIza)[A-Za-z0-9_-]{8,}/g;

/**
 * Credentials inside free text: URL user-info (`postgres://***:***@db`),
 * secret-named `key=value` pairs, and well-known token shapes.
 */
export function redactText(value: string): string {
  return value
    .replace(URL_CREDENTIALS, (_all, scheme: string, _user: string, password: string | undefined) =>
      password === undefined ? `${scheme}${REDACTED}@` : `${scheme}${REDACTED}:${REDACTED}@`,
    )
    .replace(SECRET_PAIR, (all, key: string, separator: string, secret: string) =>
      REFERENCE.test(secret) || secret === REDACTED ? all : `${key}${separator}${REDACTED}`,
    )
    .replace(TOKEN_ANYWHERE, REDACTED);
}

/** An env value: hidden when its name or its shape says secret; credentials inside it hidden otherwise. */
export function redactEnvValue(key: string, value: string): string {
  if (REFERENCE.test(value)) return value;
  if (SECRET_KEY.test(key) || SECRET_VALUE.test(value) || looksRandom(value)) return REDACTED;
  return redactText(value);
}

/**
 * A command line's arguments: credentials inside each, and the value after a
 * secret-named flag (`--token abc`, `-p hunter2` is not guessed).
 */
export function redactArgs(args: readonly string[]): string[] {
  return args.map((arg, index) => {
    const previous = index > 0 ? args[index - 1]! : "";
    if (/^--?[A-Za-z0-9_-]+$/.test(previous) && SECRET_KEY.test(previous) && !arg.startsWith("-")) return REDACTED;
    if (SECRET_VALUE.test(arg) || looksRandom(arg)) return REDACTED;
    return redactText(arg);
  });
}

/** A header value: always hidden (headers are how HTTP servers take credentials). */
export function redactHeaderValue(value: string): string {
  if (REFERENCE.test(value)) return value;
  const scheme = /^(Bearer|Basic|Token)\s+/i.exec(value);
  return scheme ? `${scheme[1]} ${REDACTED}` : REDACTED;
}

/** A URL: credentials in the user-info and secret-looking query values hidden. */
export function redactUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return raw;
  }
  if (url.username) url.username = REDACTED;
  if (url.password) url.password = REDACTED;
  for (const [key] of url.searchParams) {
    if (SECRET_KEY.test(key) || key.toLowerCase() === "key") url.searchParams.set(key, REDACTED);
  }
  return url.toString();
}

/** Long strings of mixed letters and digits with no spaces are treated as keys. */
function looksRandom(value: string): boolean {
  return (
    value.length >= 24 && !/\s|\//.test(value) && /[a-z]/.test(value) && /[A-Z0-9]/.test(value) && /\d/.test(value)
  );
}

export function redactRecord(
  record: Readonly<Record<string, string>>,
  redact: (key: string, value: string) => string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(record)) out[key] = redact(key, value);
  return out;
}
