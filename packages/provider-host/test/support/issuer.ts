/**
 * The teams example's OpenID provider (`examples/teams/issuer.mjs`, a real
 * `oidc-provider`) as a child process on loopback, and tokens from it by the
 * client-credentials grant, as a team's agents get them.
 */
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { join } from "node:path";
import readline from "node:readline";
import { PACKAGE_DIR } from "./processes";

export const ISSUER_SCRIPT = join(PACKAGE_DIR, "..", "..", "examples", "teams", "issuer.mjs");

export interface Issuer {
  readonly issuer: string;
  /** An access token for `clientId` (its example secret), for `resource` with `scope`. */
  token(clientId: string, options?: { scope?: string; resource?: string }): Promise<string>;
  close(): Promise<void>;
}

export async function startIssuer(resources: readonly string[]): Promise<Issuer> {
  const args = [ISSUER_SCRIPT, ...resources.flatMap((resource) => ["--resource", resource])];
  const child: ChildProcess = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "ignore"] });
  const first = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`issuer.mjs exited with ${code}`)));
  });
  const { issuer, clients } = JSON.parse(first) as { issuer: string; clients: Record<string, string> };
  return {
    issuer,
    async token(clientId, options = {}) {
      const body = new URLSearchParams({
        grant_type: "client_credentials",
        resource: options.resource ?? resources[0]!,
      });
      if (options.scope !== "") body.set("scope", options.scope ?? "mcp:tools");
      const response = await fetch(`${issuer}/token`, {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from(`${clientId}:${clients[clientId]}`).toString("base64")}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body,
      });
      const answer = (await response.json()) as { access_token?: string; error?: string };
      if (answer.access_token === undefined) throw new Error(`no token for ${clientId}: ${answer.error}`);
      return answer.access_token;
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** A port free right now on 127.0.0.1 (the gateway's URL must be known before the issuer starts). */
