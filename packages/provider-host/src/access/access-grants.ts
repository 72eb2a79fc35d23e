/**
 * An access policy compiled for requests: each caller's grant (the union of
 * what the rules matching it allow) is worked out once per distinct caller
 * and shared by every caller matching the same rules, so a request pays a map
 * lookup. A caller no rule matches gets the empty grant.
 */
import type { AccessPolicy, AccessRule, Caller, CallerMatch, RateLimit } from "@indus/contract";
import { PUBLISHED_NAME_OWNERS } from "./item-owners";
import type { ItemOwners } from "./item-owners";
import { grantsAll, namePatterns } from "./name-patterns";
import type { NameTest } from "./name-patterns";

/** What one caller may see and use. */
export interface Grant {
  /** Callers with equal keys hold the same grant. */
  readonly key: string;
  /** Every server, tool, prompt and resource: the box is served as it is. */
  readonly everything: boolean;
  /** The names of the rules that matched (for the audit log). */
  readonly rules: readonly string[];
  readonly rateLimit: RateLimit | undefined;
  server(id: string): boolean;
  tool(name: string): boolean;
  prompt(name: string): boolean;
  /** A resource URI or template. */
  resource(uri: string): boolean;
}

export interface AccessGrants {
  grantFor(caller: Caller): Grant;
}

interface CompiledRule {
  readonly index: number;
  readonly name: string;
  readonly matches: (caller: Caller) => boolean;
  readonly servers: NameTest;
  readonly allServers: boolean;
  readonly tools: NameTest;
  readonly prompts: NameTest;
  readonly resources: NameTest;
  readonly rateLimit: RateLimit | undefined;
}

/** Distinct callers remembered before the memo starts over (a bound against a flood of identities). */
const MAX_REMEMBERED_CALLERS = 10_000;
/** Longer names are tested afresh each time rather than kept. */
const MAX_REMEMBERED_NAME = 1024;

export function compileAccessPolicy(policy: AccessPolicy, owners: ItemOwners = PUBLISHED_NAME_OWNERS): AccessGrants {
  const rules = policy.rules.map(compileRule);
  const grants = new Map<string, Grant>();
  const byCaller = new Map<string, Grant>();
  const byObject = new WeakMap<Caller, Grant>();
  const grantOf = (matched: readonly CompiledRule[]): Grant => {
    const key = matched.map((rule) => rule.index).join(",");
    let grant = grants.get(key);
    if (grant === undefined) {
      grant = unionGrant(key, matched, owners, policy.rateLimit);
      grants.set(key, grant);
    }
    return grant;
  };
  return {
    grantFor(caller) {
      // The gateway hands the same caller object to every request of one token.
      const known = byObject.get(caller);
      if (known !== undefined) return known;
      const id = callerKey(caller);
      let grant = byCaller.get(id);
      if (grant === undefined) {
        if (byCaller.size >= MAX_REMEMBERED_CALLERS) byCaller.clear();
        grant = grantOf(rules.filter((rule) => rule.matches(caller)));
        byCaller.set(id, grant);
      }
      byObject.set(caller, grant);
      return grant;
    },
  };
}

function callerKey(caller: Caller): string {
  return JSON.stringify([caller.clientId ?? null, caller.subject ?? null, caller.groups, caller.scopes]);
}

function compileRule(rule: AccessRule, index: number): CompiledRule {
  return {
    index,
    name: rule.name ?? `rule ${index + 1}`,
    matches: callerMatcher(rule.match),
    servers: namePatterns(rule.allow.servers),
    allServers: grantsAll(rule.allow.servers),
    tools: namePatterns(rule.allow.tools),
    prompts: namePatterns(rule.allow.prompts),
    resources: namePatterns(rule.allow.resources),
    rateLimit: rule.rateLimit,
  };
}

function callerMatcher(match: CallerMatch): (caller: Caller) => boolean {
  const clientId = match.clientId && namePatterns(match.clientId);
  const subject = match.subject && namePatterns(match.subject);
  const groups = match.groups && namePatterns(match.groups);
  const scopes = match.scopes;
  return (caller) =>
    (clientId === undefined || (caller.clientId !== undefined && clientId(caller.clientId))) &&
    (subject === undefined || (caller.subject !== undefined && subject(caller.subject))) &&
    (groups === undefined || caller.groups.some(groups)) &&
    (scopes === undefined || scopes.every((scope) => caller.scopes.includes(scope)));
}

function unionGrant(
  key: string,
  rules: readonly CompiledRule[],
  owners: ItemOwners,
  defaultLimit: RateLimit | undefined,
): Grant {
  const everything = rules.some((rule) => rule.allServers);
  const rateLimit = rules.find((rule) => rule.rateLimit !== undefined)?.rateLimit ?? defaultLimit;
  const base = { key, everything, rules: rules.map((rule) => rule.name), rateLimit };
  if (everything) {
    const yes = () => true;
    return { ...base, server: yes, tool: yes, prompt: yes, resource: yes };
  }
  const server = (id: string | undefined) => id !== undefined && rules.some((rule) => rule.servers(id));
  const item = (test: (rule: CompiledRule) => NameTest, ownerOf: (name: string) => string | undefined) =>
    memo((name) => rules.some((rule) => test(rule)(name)) || server(ownerOf(name)));
  return {
    ...base,
    server,
    tool: item(
      (rule) => rule.tools,
      (name) => owners.tool(name),
    ),
    prompt: item(
      (rule) => rule.prompts,
      (name) => owners.prompt(name),
    ),
    resource: item(
      (rule) => rule.resources,
      (uri) => owners.resource(uri),
    ),
  };
}

/** Remembers a test's answers (names are few; a flood of unknown ones only restarts the memo). */
function memo(test: NameTest): NameTest {
  const answers = new Map<string, boolean>();
  return (name) => {
    if (name.length > MAX_REMEMBERED_NAME) return test(name);
    let answer = answers.get(name);
    if (answer === undefined) {
      if (answers.size >= MAX_REMEMBERED_CALLERS) answers.clear();
      answer = test(name);
      answers.set(name, answer);
    }
    return answer;
  };
}
