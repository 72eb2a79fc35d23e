/**
 * Secrets never reach a terminal: `mcp list/get/show-merged` print env and
 * header values through here. A `${VAR}` reference is not a secret and stays.
 */
const SECRET_KEY = /(token|secret|pass(word|wd)?|api[-_]?key|auth|credential|cookie|session|private|bearer|signature)/i;
const SECRET_VALUE = /^(sk-|sk_|ghp_|gho_|github_pat_|xox[abpr]-|glpat-|AKIA|AIza|eyJ)|^Bearer\s/i;
const REFERENCE = /^\$\{[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\}$/;

export const REDACTED = "***";

/** An env value: hidden when its name or its shape says secret. */
export function redactEnvValue(key: string, value: string): string {
  if (REFERENCE.test(value)) return value;
  if (SECRET_KEY.test(key) || SECRET_VALUE.test(value) || looksRandom(value)) return REDACTED;
  return value;
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
