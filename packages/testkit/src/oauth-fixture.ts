/**
 * The test authorization server + MCP server (`fixtures/oauth-server.mjs`) as
 * a child process, and a stand-in browser: an HTTP client that follows the
 * authorization redirects with a cookie jar, the way a user's browser would
 * after they approve. CLI tests import this file too.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import readline from "node:readline";

export const OAUTH_SERVER_SCRIPT = path.join(__dirname, "..", "fixtures", "oauth-server.mjs");

export interface OAuthFixture {
  readonly mcpUrl: string;
  readonly issuer: string;
  readonly adminUrl: string;
  /** The PKCS#8 PEM private key the `ci-jwt` client signs its assertions with. */
  readonly clientKeyPem: string;
  stats(): Promise<OAuthStats>;
  /** From now on the server answers 401 to every token it has seen (as if revoked). */
  rejectSeenTokens(): Promise<void>;
  close(): Promise<void>;
}

export interface OAuthStats {
  readonly grants: Record<string, number>;
  readonly registrations: number;
  readonly authorizations: number;
  readonly unauthorized: number;
  readonly toolCalls: number;
  readonly resources: (string | null)[];
  readonly pkceMethods: (string | null)[];
  /** One entry per client_credentials grant: who, how it authenticated, and the JWT assertion's claims. */
  readonly clientAuth: readonly ClientAuthRecord[];
  /** DPoP proofs the MCP server accepted (each checked against the token's bound key). */
  readonly dpopProofs: number;
}

/** The secret the fixture's `ci-basic` and `ci-post` clients were registered with. */
export const FIXTURE_CLIENT_SECRET = "ci-secret";

export interface ClientAuthRecord {
  readonly clientId: string;
  readonly via: "basic-header" | "post-body" | "jwt";
  readonly scope: string | null;
  readonly resource: string | null;
  readonly claims?: Record<string, unknown>;
  readonly alg?: string;
  readonly tokenEndpoint?: string;
}

export async function startOAuthFixture(options: { tokenTtlSeconds?: number } = {}): Promise<OAuthFixture> {
  const args = [OAUTH_SERVER_SCRIPT];
  if (options.tokenTtlSeconds !== undefined) args.push("--token-ttl", String(options.tokenTtlSeconds));
  const child: ChildProcess = spawn(process.execPath, args, {
    stdio: ["pipe", "pipe", process.env.OAUTH_FIXTURE_DEBUG ? "inherit" : "ignore"],
  });
  const lines = readline.createInterface({ input: child.stdout! });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`oauth fixture exited with ${code}`)));
  });
  const info = JSON.parse(first) as { mcpUrl: string; issuer: string; adminUrl: string; clientKeyPem: string };
  return {
    ...info,
    async stats() {
      return (await (await fetch(`${info.adminUrl}/stats`)).json()) as OAuthStats;
    },
    async rejectSeenTokens() {
      await fetch(`${info.adminUrl}/reject`, { method: "POST" });
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.stdin!.end();
      }),
  };
}

/**
 * Follow the authorization server's redirects from `start` as a browser would
 * (cookies kept), up to the first URL under `until`; returns that URL without
 * fetching it, or fetches it too when `deliver` is set (the sign-in's loopback listener).
 */
export async function browse(start: URL, until: string, deliver = false): Promise<URL> {
  const cookies = new Map<string, string>();
  let url = start;
  for (let hop = 0; hop < 20; hop += 1) {
    if (url.href.startsWith(until)) {
      if (deliver) await (await fetch(url)).text();
      return url;
    }
    const response = await fetch(url, {
      redirect: "manual",
      headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1));
    }
    const location = response.headers.get("location");
    await response.text();
    if (!location) throw new Error(`${url.href} answered ${response.status} without a redirect`);
    url = new URL(location, url);
  }
  throw new Error("too many redirects");
}
