/**
 * Who may talk to the HTTP host. Two independent checks run before any MCP
 * processing:
 *
 * - DNS-rebinding defence: the `Host` header must name the host as the
 *   operator knows it (by default the loopback names with the bound port), and
 *   an `Origin` header, when a browser sends one, must be allowed or same-origin.
 * - Bearer token: when a token is configured every request must present it;
 *   it is compared in constant time.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { isIP } from "node:net";
import type { IncomingMessage } from "node:http";

export type GuardVerdict =
  | { readonly kind: "allowed" }
  | { readonly kind: "forbidden"; readonly reason: string }
  | { readonly kind: "unauthorized"; readonly reason: string };

export interface GuardPolicy {
  /** Lower-cased `Host` values accepted, or `"any"`. */
  readonly allowedHosts: ReadonlySet<string> | "any";
  /** Lower-cased origins accepted besides the request's own origin. */
  readonly allowedOrigins: ReadonlySet<string>;
  /** The required bearer token, or undefined when none is configured. */
  readonly token?: string;
}

const ALLOWED: GuardVerdict = { kind: "allowed" };

/** True for addresses that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  const lower = bare.toLowerCase();
  if (lower === "localhost") return true;
  if (isIP(lower) === 4) return lower.startsWith("127.");
  if (isIP(lower) === 6) return lower === "::1" || lower.startsWith("::ffff:127.");
  return false;
}

/** The names a loopback-bound host answers to by default. */
export function loopbackHostNames(port: number): string[] {
  return [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`];
}

export function loopbackOrigins(port: number): string[] {
  return loopbackHostNames(port).flatMap((host) => [`http://${host}`, `https://${host}`]);
}

export function checkRequest(request: IncomingMessage, policy: GuardPolicy): GuardVerdict {
  const host = request.headers.host?.toLowerCase();
  if (policy.allowedHosts !== "any") {
    if (host === undefined || !policy.allowedHosts.has(host)) {
      return { kind: "forbidden", reason: `Forbidden: Host header ${JSON.stringify(host ?? "")} is not allowed` };
    }
  }
  const origin = request.headers.origin;
  if (origin !== undefined && !originAllowed(origin.toLowerCase(), host, policy)) {
    return { kind: "forbidden", reason: `Forbidden: Origin ${JSON.stringify(origin)} is not allowed` };
  }
  if (policy.token !== undefined && !bearerMatches(request.headers.authorization, policy.token)) {
    return { kind: "unauthorized", reason: "Unauthorized: a valid bearer token is required" };
  }
  return ALLOWED;
}

function originAllowed(origin: string, host: string | undefined, policy: GuardPolicy): boolean {
  if (policy.allowedOrigins.has(origin)) return true;
  // Same-origin requests are as trusted as the (already checked) Host.
  if (host === undefined) return false;
  return origin === `http://${host}` || origin === `https://${host}`;
}

function bearerMatches(header: string | undefined, token: string): boolean {
  if (header === undefined) return false;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (match === null) return false;
  // Hash both sides so the comparison is constant-time regardless of length.
  const presented = createHash("sha256")
    .update(match[1] ?? "")
    .digest();
  const expected = createHash("sha256").update(token).digest();
  return timingSafeEqual(presented, expected);
}
