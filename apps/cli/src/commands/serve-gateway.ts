/**
 * `indusr mcp serve --http` as a gateway for teams: the provider host
 * options its flags (`serve-gateway-flags`) become. Traces need no flag: the
 * standard `OTEL_EXPORTER_OTLP_*` variables turn them on.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseAccessPolicy } from "@indus/contract";
import type { AccessPolicy } from "@indus/contract";
import type { GatewayOptions, UpstreamHealth } from "@indus/provider-host";
import type { BootedDeck } from "../boot/boot-types";
import { UsageError } from "../exit";
import { INTROSPECTION_SECRET_ENV } from "./serve-gateway-flags";
import type { GatewayFlags } from "./serve-gateway-flags";

/** The provider host options `flags` ask for (none: the host serves exactly as before). */
export function gatewayOptionsOf(
  flags: GatewayFlags,
  deck: BootedDeck,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): GatewayOptions {
  return {
    ...oauthOf(flags, env),
    ...(flags.access !== undefined && { access: accessPolicyOf(resolve(cwd, flags.access)) }),
    ...(flags.auditLog !== undefined && { auditLog: { file: resolve(cwd, flags.auditLog) } }),
    ...(flags.metrics === true && { metrics: true, upstreams: () => upstreamsOf(deck) }),
    ...(flags.rateLimit !== undefined && { rateLimit: { perMinute: perMinuteOf(flags.rateLimit) } }),
  };
}

function oauthOf(flags: GatewayFlags, env: Readonly<Record<string, string | undefined>>): GatewayOptions {
  if (flags.authIssuer === undefined) {
    const stray = [flags.authResource, flags.authScope, flags.authIntrospection].some((flag) => flag !== undefined);
    if (stray) throw new UsageError("--auth-resource, --auth-scope and --auth-introspection go with --auth-issuer");
    return {};
  }
  const issuer = urlOf("--auth-issuer", flags.authIssuer);
  const resource = flags.authResource === undefined ? undefined : urlOf("--auth-resource", flags.authResource);
  const secret = env[INTROSPECTION_SECRET_ENV];
  if (flags.authIntrospection !== undefined && !secret) {
    throw new UsageError(`--auth-introspection needs the client's secret in $${INTROSPECTION_SECRET_ENV}`);
  }
  return {
    oauth: {
      issuer,
      ...(resource !== undefined && { resource }),
      ...(flags.authScope !== undefined && { requiredScopes: flags.authScope }),
      ...(flags.authIntrospection !== undefined && {
        introspection: { clientId: flags.authIntrospection, clientSecret: secret! },
      }),
    },
  };
}

/** An issuer or resource URL as given (an issuer's trailing slash is part of its identity). */
function urlOf(flag: string, value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error("not http(s)");
    return value;
  } catch {
    throw new UsageError(`${flag} must be an http(s) URL, not "${value}"`);
  }
}

function accessPolicyOf(file: string): AccessPolicy {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new UsageError(`--access ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const parsed = parseAccessPolicy(value);
  if (parsed.ok) return parsed.value;
  const issues = parsed.issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ");
  throw new UsageError(`--access ${file} is not a valid access policy: ${issues}`);
}

function perMinuteOf(value: string): number {
  const perMinute = Number(value);
  if (value.trim() === "" || !Number.isFinite(perMinute) || perMinute <= 0) {
    throw new UsageError(`--rate-limit must be a number of requests a minute above 0, not "${value}"`);
  }
  return perMinute;
}

function upstreamsOf(deck: BootedDeck): readonly UpstreamHealth[] {
  return deck.mcp.servers().map((server) => ({ server: server.id, up: server.phase === "ready" }));
}

/** `/readyz`'s answer: true once every mounted server connected or failed. */
export function readinessOf(deck: BootedDeck): () => boolean {
  if (deck.settled === undefined) return () => true;
  let settled = false;
  void deck.settled.then(() => (settled = true));
  return () => settled;
}
