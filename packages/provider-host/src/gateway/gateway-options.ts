/** What makes the HTTP host a gateway for teams: who may call, what each caller may use, and what is recorded. */
import type { AccessPolicyInput, RateLimit } from "@indus/contract";
import type { ItemOwners } from "../access/item-owners";
import type { OAuthResourceOptions } from "../auth/oauth-options";
import type { AuditLogOptions } from "../observe/audit-log";
import type { UpstreamHealth } from "../observe/gateway-metrics";

export interface GatewayOptions {
  /**
   * Act as an OAuth 2.1 resource server: every request needs an access token
   * from `issuer` for this resource (then `tokenEnv` is not used).
   */
  readonly oauth?: OAuthResourceOptions;
  /**
   * Which servers, tools, prompts and resources each caller may see and use
   * (checked with `parseAccessPolicy`; a bad one fails the start). Default: everything.
   */
  readonly access?: AccessPolicyInput;
  /** Which mounted server a published item belongs to, for rules granting servers. Default: read from names. */
  readonly owners?: ItemOwners;
  /** Write one JSON line per request here. */
  readonly auditLog?: AuditLogOptions;
  /** Serve Prometheus metrics at `/metrics`. */
  readonly metrics?: boolean;
  /** Every caller's request budget, unless the access policy sets one. */
  readonly rateLimit?: RateLimit;
  /** The mounted servers' health, for `/metrics`. */
  readonly upstreams?: () => readonly UpstreamHealth[];
  /**
   * Traces: `"env"` (the default) exports spans by OTLP/HTTP when the
   * `OTEL_EXPORTER_OTLP_*` variables (from `env`) name an endpoint; `false` never.
   */
  readonly tracing?: "env" | false;
}

/** True when any option asks for the gateway layer (else the host serves exactly as before). */
export function wantsGateway(options: GatewayOptions, env: Readonly<Record<string, string | undefined>>): boolean {
  return (
    options.oauth !== undefined ||
    options.access !== undefined ||
    options.auditLog !== undefined ||
    options.metrics === true ||
    options.rateLimit !== undefined ||
    (options.tracing !== false &&
      (env["OTEL_EXPORTER_OTLP_ENDPOINT"] !== undefined || env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] !== undefined))
  );
}
