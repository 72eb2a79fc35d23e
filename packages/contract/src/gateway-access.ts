/**
 * Who may use what through a gateway for teams: the caller a request's
 * credentials name, and the access policy that maps callers to the servers,
 * tools, prompts and resources they may see and use, with a request budget.
 * Data only: the provider host enforces it, the CLI reads it from a file.
 */
import { z } from "zod";
import { toParse } from "./server-config";
import type { ConfigParse } from "./server-config";

/**
 * Who a gateway request comes from, as its verified credentials say (never
 * as the request body claims). Each field is empty when the credentials do
 * not name it: a static bearer token names nobody.
 */
export interface Caller {
  /** The OAuth client the access token was issued to. */
  readonly clientId?: string;
  /** The token's `sub`: a person, or for a client-credentials token the client itself. */
  readonly subject?: string;
  readonly groups: readonly string[];
  readonly scopes: readonly string[];
}

/** A name or a list of them; `*` stands for any run of characters, `?` for one. */
const PatternsSchema = z
  .union([z.string().min(1).max(512), z.array(z.string().min(1).max(512)).min(1).max(256)])
  .transform((value) => (typeof value === "string" ? [value] : value));

export const RateLimitSchema = z
  .object({
    /** Requests a caller may make per minute, on average. */
    perMinute: z.number().positive(),
    /** Requests a caller may make at once after a quiet spell. Default: a tenth of `perMinute`, at least 1. */
    burst: z.number().int().positive().optional(),
  })
  .strict();

/** Which callers a rule is for: every field given must match (`{}` matches every caller). */
export const CallerMatchSchema = z
  .object({
    clientId: PatternsSchema.optional(),
    subject: PatternsSchema.optional(),
    /** One of the caller's groups matches one of these. */
    groups: PatternsSchema.optional(),
    /** The caller holds every one of these scopes. */
    scopes: PatternsSchema.optional(),
  })
  .strict();

/**
 * What a rule lets its callers see and use. `servers` grants everything a
 * mounted server offers (by server id); the others grant single items by
 * their published name (`<server>__<tool>`, a prompt's name, a resource URI
 * or template).
 */
export const AccessGrantSchema = z
  .object({
    servers: PatternsSchema.optional(),
    tools: PatternsSchema.optional(),
    prompts: PatternsSchema.optional(),
    resources: PatternsSchema.optional(),
  })
  .strict();

export const AccessRuleSchema = z
  .object({
    /** Shown in the audit log and errors. */
    name: z.string().max(128).optional(),
    match: CallerMatchSchema,
    allow: AccessGrantSchema,
    /** This rule's callers' budget (the first matching rule that sets one wins). */
    rateLimit: RateLimitSchema.optional(),
  })
  .strict();

/**
 * A caller may use the union of what every rule matching it allows; a caller
 * no rule matches may use nothing.
 */
export const AccessPolicySchema = z
  .object({
    rules: z.array(AccessRuleSchema).max(1000),
    /** Every caller's budget, unless a matching rule sets one. */
    rateLimit: RateLimitSchema.optional(),
  })
  .strict();

export type RateLimit = z.output<typeof RateLimitSchema>;
export type CallerMatch = z.output<typeof CallerMatchSchema>;
export type AccessGrant = z.output<typeof AccessGrantSchema>;
export type AccessRule = z.output<typeof AccessRuleSchema>;
export type AccessPolicy = z.output<typeof AccessPolicySchema>;
/** What a policy file may say (single names where lists are allowed). */
export type AccessPolicyInput = z.input<typeof AccessPolicySchema>;

/** Validate an untrusted access policy (a file's parsed JSON); never throws. */
export function parseAccessPolicy(value: unknown): ConfigParse<AccessPolicy> {
  return toParse(AccessPolicySchema.safeParse(value));
}

/**
 * The W3C trace context a request runs in (`traceparent`, `tracestate`),
 * passed to the servers behind a gateway in their requests' `_meta`.
 */
export interface TraceContext {
  readonly traceparent: string;
  readonly tracestate?: string;
}
