/**
 * The machine's managed MCP policy: a file an administrator deploys
 * (`/etc/indusr/managed-mcp.json`; `INDUSR_MANAGED_MCP` names another) with
 * allow and deny lists of servers, in Claude Code's shape:
 *
 *   { "allowedMcpServers": [{ "serverName": "github" }, { "serverUrl": "https://*.corp.example/*" }],
 *     "deniedMcpServers":  [{ "serverCommand": "npx" }, { "serverCommand": ["node", "*evil*"] }] }
 *
 * A rule matches a server when every field it gives matches (`*` matches any
 * run of characters): `serverName` the server's name, `serverCommand` the
 * command (or, as an array, the command and each argument in turn, the same
 * number of them), `serverUrl` the URL. A denied server never starts; when
 * an allow list is present, a server on none of its rules is denied too. A
 * policy file that exists but cannot be read denies every server (a broken
 * policy must not open the machine up).
 */
import fs from "node:fs";
import path from "node:path";
import { isRecord } from "@indus/contract";
import type { EnvLookup } from "./placeholders";

export const MANAGED_POLICY_FILE = "/etc/indusr/managed-mcp.json";

/** One allow or deny rule. */
export interface ServerRule {
  readonly serverName?: string;
  readonly serverCommand?: string | readonly string[];
  readonly serverUrl?: string;
}

export interface ManagedPolicy {
  readonly file: string;
  /** Absent: no allow list (everything not denied is allowed). */
  readonly allowed?: readonly ServerRule[];
  readonly denied: readonly ServerRule[];
  /** Why the file could not be read as a policy; every server is denied then. */
  readonly broken?: string;
}

/** What a rule is matched against: a server row, before or after it is made concrete. */
export interface PolicySubject {
  readonly name: string;
  readonly command?: string;
  readonly args?: readonly string[];
  readonly url?: string;
}

export type PolicyVerdict = { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

/** Where the policy is read from. */
export function managedPolicyFile(env: EnvLookup = process.env): string {
  const named = env.INDUSR_MANAGED_MCP;
  return named !== undefined && named !== "" ? path.resolve(named) : MANAGED_POLICY_FILE;
}

function ruleOf(value: unknown, where: string): ServerRule {
  if (!isRecord(value)) throw new Error(`${where}: must be an object`);
  const { serverName, serverCommand, serverUrl, ...rest } = value;
  const extra = Object.keys(rest);
  if (extra.length > 0) throw new Error(`${where}: unknown field "${extra[0]}"`);
  const commandOk =
    serverCommand === undefined ||
    typeof serverCommand === "string" ||
    (Array.isArray(serverCommand) && serverCommand.length > 0 && serverCommand.every((p) => typeof p === "string"));
  if (
    (serverName !== undefined && typeof serverName !== "string") ||
    !commandOk ||
    (serverUrl !== undefined && typeof serverUrl !== "string")
  )
    throw new Error(`${where}: serverName and serverUrl are strings, serverCommand a string or an array of strings`);
  if (serverName === undefined && serverCommand === undefined && serverUrl === undefined)
    throw new Error(`${where}: needs serverName, serverCommand or serverUrl`);
  return {
    ...(serverName !== undefined ? { serverName } : {}),
    ...(serverCommand !== undefined ? { serverCommand: serverCommand } : {}),
    ...(serverUrl !== undefined ? { serverUrl } : {}),
  };
}

function rulesOf(value: unknown, key: string): ServerRule[] {
  if (!Array.isArray(value)) throw new Error(`${key}: must be an array of rules`);
  return value.map((rule, i) => ruleOf(rule, `${key}[${i}]`));
}

/** Parses a policy's text; throws with the reason when it is not one. */
export function parseManagedPolicy(text: string, file: string): ManagedPolicy {
  const doc: unknown = JSON.parse(text);
  if (!isRecord(doc)) throw new Error("must be a JSON object");
  const allowed =
    doc["allowedMcpServers"] === undefined ? undefined : rulesOf(doc["allowedMcpServers"], "allowedMcpServers");
  const denied = doc["deniedMcpServers"] === undefined ? [] : rulesOf(doc["deniedMcpServers"], "deniedMcpServers");
  return { file, ...(allowed ? { allowed } : {}), denied };
}

/** The machine's policy; undefined when there is no policy file. Never throws. */
export function loadManagedPolicy(env: EnvLookup = process.env): ManagedPolicy | undefined {
  const file = managedPolicyFile(env);
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    return { file, denied: [], broken: `cannot read it: ${(error as Error).message}` };
  }
  try {
    return parseManagedPolicy(text, file);
  } catch (error) {
    return { file, denied: [], broken: (error as Error).message };
  }
}

function wildcard(pattern: string, value: string): boolean {
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/gu, "\\$&"))
    .join(".*");
  return new RegExp(`^${source}$`, "su").test(value);
}

function commandMatches(rule: string | readonly string[], subject: PolicySubject): boolean {
  if (subject.command === undefined) return false;
  if (typeof rule === "string")
    return wildcard(rule, subject.command) || wildcard(rule, path.basename(subject.command));
  const argv = [subject.command, ...(subject.args ?? [])];
  if (argv.length !== rule.length) return false;
  return rule.every((part, i) => wildcard(part, argv[i]!) || (i === 0 && wildcard(part, path.basename(argv[0]!))));
}

function urlMatches(rule: string, url: string | undefined): boolean {
  if (url === undefined) return false;
  let normal = url;
  try {
    normal = new URL(url).href;
  } catch {
    // Matched as written.
  }
  return wildcard(rule, url) || wildcard(rule, normal);
}

function matches(rule: ServerRule, subject: PolicySubject): boolean {
  if (rule.serverName !== undefined && !wildcard(rule.serverName, subject.name)) return false;
  if (rule.serverCommand !== undefined && !commandMatches(rule.serverCommand, subject)) return false;
  if (rule.serverUrl !== undefined && !urlMatches(rule.serverUrl, subject.url)) return false;
  return true;
}

/** Whether the policy lets `subject` start, and if not, why (naming the policy file). */
export function policyVerdict(policy: ManagedPolicy | undefined, subject: PolicySubject): PolicyVerdict {
  if (policy === undefined) return { allowed: true };
  const denied = (why: string): PolicyVerdict => ({ allowed: false, reason: `server "${subject.name}" ${why}` });
  if (policy.broken !== undefined)
    return denied(
      `is denied: the managed policy ${policy.file} cannot be read (${policy.broken}), so no server starts`,
    );
  const deny = policy.denied.findIndex((rule) => matches(rule, subject));
  if (deny >= 0) return denied(`is denied by the managed policy ${policy.file} (deniedMcpServers[${deny}])`);
  if (policy.allowed !== undefined && !policy.allowed.some((rule) => matches(rule, subject)))
    return denied(`is not on the allow list of the managed policy ${policy.file} (allowedMcpServers)`);
  return { allowed: true };
}
