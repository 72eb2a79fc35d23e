/**
 * Why an HTTP request failed, read from the error codes undici and Node put on
 * the `cause` chain (`fetch failed` → `ECONNREFUSED`), never from message text.
 */

export type NetworkCauseKind = "refused" | "reset" | "timed-out" | "tls" | "dns" | "unreachable";

export interface NetworkCause {
  readonly kind: NetworkCauseKind;
  /** The error code as Node or undici gave it, e.g. `ECONNREFUSED`. */
  readonly code: string;
  /** e.g. `connection refused (ECONNREFUSED 127.0.0.1:4000)`. */
  readonly text: string;
}

const KIND_BY_CODE: Readonly<Record<string, NetworkCauseKind>> = {
  ECONNREFUSED: "refused",
  ECONNRESET: "reset",
  EPIPE: "reset",
  UND_ERR_SOCKET: "reset",
  UND_ERR_CLOSED: "reset",
  ETIMEDOUT: "timed-out",
  UND_ERR_CONNECT_TIMEOUT: "timed-out",
  UND_ERR_HEADERS_TIMEOUT: "timed-out",
  UND_ERR_BODY_TIMEOUT: "timed-out",
  ENOTFOUND: "dns",
  EAI_AGAIN: "dns",
  EHOSTUNREACH: "unreachable",
  ENETUNREACH: "unreachable",
  EPROTO: "tls",
  CERT_HAS_EXPIRED: "tls",
  CERT_NOT_YET_VALID: "tls",
  DEPTH_ZERO_SELF_SIGNED_CERT: "tls",
  SELF_SIGNED_CERT_IN_CHAIN: "tls",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "tls",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "tls",
};

const KIND_TEXT: Readonly<Record<NetworkCauseKind, string>> = {
  refused: "connection refused",
  reset: "connection reset",
  "timed-out": "connection timed out",
  tls: "TLS handshake failed",
  dns: "host name not resolved",
  unreachable: "host unreachable",
};

const MAX_DEPTH = 6;

function kindOf(code: string): NetworkCauseKind | undefined {
  if (code.startsWith("ERR_TLS_") || code.startsWith("ERR_SSL_")) return "tls";
  return KIND_BY_CODE[code];
}

/** The first recognised network cause on `error`'s cause chain (AggregateErrors included), if any. */
export function networkCause(error: unknown): NetworkCause | undefined {
  const queue: unknown[] = [error];
  for (let depth = 0; depth < MAX_DEPTH * 4 && queue.length > 0; depth += 1) {
    const current = queue.shift();
    if (typeof current !== "object" || current === null) continue;
    const fields = current as { code?: unknown; address?: unknown; port?: unknown; cause?: unknown; errors?: unknown };
    const kind = typeof fields.code === "string" ? kindOf(fields.code) : undefined;
    if (kind && typeof fields.code === "string") {
      const where =
        typeof fields.address === "string"
          ? ` ${fields.address}${typeof fields.port === "number" ? `:${fields.port}` : ""}`
          : "";
      return { kind, code: fields.code, text: `${KIND_TEXT[kind]} (${fields.code}${where})` };
    }
    if (fields.cause !== undefined) queue.push(fields.cause);
    if (Array.isArray(fields.errors)) queue.push(...(fields.errors as unknown[]));
  }
  return undefined;
}
