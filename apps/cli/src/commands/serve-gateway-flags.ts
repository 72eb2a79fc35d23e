/**
 * The flags that make `indusr mcp serve --http` a gateway for teams: an
 * OAuth resource server with per-caller tool sets, an audit log, metrics and
 * budgets. Only the flags: the command tree loads this on every run.
 */
import type { Command } from "commander";

/** Where `--auth-introspection`'s client secret is read from. */
export const INTROSPECTION_SECRET_ENV = "INDUSR_INTROSPECTION_SECRET";

export interface GatewayFlags {
  readonly authIssuer?: string;
  readonly authResource?: string;
  readonly authScope?: readonly string[];
  readonly authIntrospection?: string;
  readonly access?: string;
  readonly auditLog?: string;
  readonly metrics?: boolean;
  readonly rateLimit?: string;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function withGatewayFlags(command: Command): Command {
  return command
    .option(
      "--auth-issuer <url>",
      "HTTP: accept only OAuth access tokens from this issuer (JWTs checked against its keys), as an OAuth 2.1 resource server",
    )
    .option(
      "--auth-resource <url>",
      "HTTP: the gateway's public MCP URL, the tokens' audience (default: the served URL; behind a proxy, the proxy's)",
    )
    .option("--auth-scope <scope>", "HTTP: a scope every token must hold (repeatable; 403 insufficient_scope)", collect)
    .option(
      "--auth-introspection <client-id>",
      `HTTP: check opaque tokens by introspection as this client of the issuer (its secret in $${INTROSPECTION_SECRET_ENV})`,
    )
    .option(
      "--access <file>",
      "HTTP: the access policy (JSON): which servers, tools, prompts and resources each caller may use",
    )
    .option(
      "--audit-log <file>",
      "HTTP: append one JSON line per request (no argument values, no tokens), rotated by size",
    )
    .option("--metrics", "HTTP: serve Prometheus metrics at /metrics")
    .option(
      "--rate-limit <per-minute>",
      "HTTP: each caller's request budget a minute (429 beyond it), unless --access sets one",
    );
}
