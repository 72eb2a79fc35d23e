/**
 * The managed policy at the two paths that write a server into a config file
 * (`mcp add`, `mcp import`): a server the policy denies is never written, so
 * it can never start from there, and the refusal names the policy file.
 * (Servers read from config files and `--mcp` are checked where the config
 * is resolved, in the deck.)
 */
import { loadManagedPolicy, policyVerdict, type ManagedPolicy } from "@indus/deck/mcp-config";

/** Why the policy refuses the row `name` as written; undefined when it may be added. */
export function policyRefusal(
  name: string,
  row: Readonly<Record<string, unknown>>,
  env: NodeJS.ProcessEnv,
  policy: ManagedPolicy | undefined = loadManagedPolicy(env),
): string | undefined {
  const verdict = policyVerdict(policy, {
    name,
    ...(typeof row["command"] === "string" ? { command: row["command"] } : {}),
    ...(Array.isArray(row["args"]) ? { args: row["args"].map(String) } : {}),
    ...(typeof row["url"] === "string" ? { url: row["url"] } : {}),
  });
  return verdict.allowed ? undefined : verdict.reason;
}
