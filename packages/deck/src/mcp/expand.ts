/**
 * `${VAR}`, `${VAR:-default}` and `${env:VAR}` in config strings. An unset
 * variable without a default expands to "" and is reported, so a missing
 * token shows up as a diagnostic instead of a mysterious auth failure.
 */
export type EnvLookup = Readonly<Record<string, string | undefined>>;

const PATTERN = /\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export function expandVars(value: string, env: EnvLookup, onMissing: (name: string) => void): string {
  return value.replace(PATTERN, (_match, name: string, fallback: string | undefined) => {
    const found = env[name];
    if (found !== undefined && found !== "") return found;
    if (fallback !== undefined) return fallback;
    if (found === undefined) onMissing(name);
    return "";
  });
}
