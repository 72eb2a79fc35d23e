/**
 * `indusr mcp login <server>` and `indusr mcp logout <server>`: sign in to a
 * remote server with OAuth 2.1 (the flow is the SDK's, run by
 * `@indus/endpoint`), or forget the sign-in. The browser step: the
 * authorization URL opens in the local browser when there is one, and is
 * always printed; the redirect comes back to a listener on 127.0.0.1, or, from
 * a remote shell, the user pastes the URL the browser ended on.
 */
import readline from "node:readline";
import type { OAuthSettings, ServerConfig } from "@indus/contract";
import { SERVER_ID_PATTERN, isProtocolFault } from "@indus/contract";
import { resolveMcpConfig } from "@indus/deck";
import { createServerEndpoint, signIn } from "@indus/endpoint";
import { FileTokenStore, defaultAuthDir } from "../auth/file-token-store";
import { listenForRedirect } from "../auth/loopback-redirect";
import { hasDisplay, openBrowser } from "../auth/open-browser";
import { cliEnv } from "../cli-env";
import { EXIT } from "../exit";
import { warnDiagnostics } from "./shared";

interface LoginFlags {
  readonly mcp?: string[];
  readonly cwd?: string;
  /** `--no-browser` sets this false. */
  readonly browser?: boolean;
}

/** How long the user has to finish in the browser. */
const SIGN_IN_MS = 5 * 60_000;

function say(line: string): void {
  process.stderr.write(`${line}\n`);
}

function findServer(name: string, flags: LoginFlags): { server?: ServerConfig; configured: string[] } {
  const cli = cliEnv(flags);
  const resolved = resolveMcpConfig({ mcp: flags.mcp ?? [] }, cli.cwd, cli.env);
  warnDiagnostics(cli, resolved.diagnostics);
  const server = resolved.servers.find((s) => s.id === name);
  return { ...(server ? { server } : {}), configured: resolved.servers.map((s) => s.id) };
}

/** A pasted redirect: the whole URL the browser ended on, or just its query. */
export function parsePastedRedirect(line: string): URLSearchParams | undefined {
  const text = line.trim();
  if (text === "") return undefined;
  let params: URLSearchParams;
  try {
    params = new URL(text).searchParams;
  } catch {
    params = new URLSearchParams(text.startsWith("?") ? text.slice(1) : text);
  }
  return params.has("code") || params.has("error") ? params : undefined;
}

/** Lines typed on stdin that look like a redirect; stops listening once settled. */
function pastedRedirect(): { params: Promise<URLSearchParams>; stop(): void } {
  const lines = readline.createInterface({ input: process.stdin, terminal: false });
  const params = new Promise<URLSearchParams>((resolve) => {
    lines.on("line", (line) => {
      const parsed = parsePastedRedirect(line);
      if (parsed) resolve(parsed);
      else if (line.trim() !== "") say("That is not the redirect URL (it has no code); paste the whole address.");
    });
  });
  return {
    params,
    stop: () => {
      lines.close();
      process.stdin.pause();
    },
  };
}

function withinDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no sign-in arrived within ${Math.round(ms / 60_000)} minutes`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

export async function mcpLoginCommand(name: string, flags: LoginFlags): Promise<number> {
  const { server, configured } = findServer(name, flags);
  if (!server) {
    say(
      `indusr: no MCP server named "${name}" is configured${configured.length > 0 ? ` (configured: ${configured.join(", ")})` : ""}`,
    );
    return EXIT.failed;
  }
  if (server.transport === "stdio") {
    say(`indusr: "${name}" is a local (stdio) server; only remote servers sign in`);
    return EXIT.usage;
  }
  const cli = cliEnv(flags);
  if (server.oauth?.grant === "client_credentials") return checkClientCredentials(server, cli.env);
  const store = new FileTokenStore(defaultAuthDir(cli.env));
  let listener;
  try {
    listener = await listenForRedirect(server.oauth?.callbackPort ?? 0);
  } catch (error) {
    say(`indusr: cannot listen for the sign-in redirect on 127.0.0.1: ${(error as Error).message}`);
    return EXIT.failed;
  }
  const redirect = listener;
  const useBrowser = flags.browser !== false && hasDisplay(cli.env);
  let paste: ReturnType<typeof pastedRedirect> | undefined;
  try {
    // The user may take minutes in the browser: the login's own deadline governs, not the config's startup one.
    const { startupTimeoutMs: _startup, ...config } = server;
    const result = await signIn(config, {
      store,
      clientName: "indusr",
      redirectUrl: redirect.url,
      endpoint: { timeouts: { startupMs: SIGN_IN_MS + 30_000 } },
      authorize: async (url) => {
        const opened = useBrowser && (await openBrowser(url.href));
        say(
          opened
            ? `Opened your browser to sign in to "${name}". If it did not open, visit:\n\n  ${url.href}\n`
            : `To sign in to "${name}", open this URL in a browser:\n\n  ${url.href}\n`,
        );
        say(
          `Waiting for the redirect to ${redirect.url} ... (from a remote shell, paste the URL the browser ended on)`,
        );
        paste = pastedRedirect();
        return withinDeadline(Promise.race([redirect.params, paste.params]), SIGN_IN_MS);
      },
    });
    if (!result.signedIn) {
      say(`"${name}" did not ask for a sign-in; it answered with ${result.toolCount} tools as it is.`);
      return EXIT.ok;
    }
    say(
      `Signed in to "${name}"${result.serverName ? ` (${result.serverName})` : ""}: ${result.toolCount} tools. ` +
        `The sign-in is saved in ${store.fileOf(name)}, readable by you only.`,
    );
    return EXIT.ok;
  } catch (error) {
    const message = isProtocolFault(error) ? error.message : (error as Error).message;
    say(`indusr: signing in to "${name}" failed: ${message}`);
    return EXIT.failed;
  } finally {
    paste?.stop();
    await redirect.close();
  }
}

/**
 * A client_credentials server has no browser step and nothing to store: every
 * connect runs the grant. `login` runs it once to show that the credentials work.
 */
async function checkClientCredentials(server: ServerConfig, env: NodeJS.ProcessEnv): Promise<number> {
  const name = server.id;
  const method = server.transport === "stdio" ? "" : describeMethod(server.oauth ?? {});
  say(`"${name}" signs in with the client_credentials grant (${method}): no browser, nothing stored.`);
  const endpoint = createServerEndpoint(server, undefined, { env });
  try {
    await endpoint.open();
    const tools = await endpoint.listTools();
    say(
      `Got an access token for "${name}": ${tools.length} tools. Every connect runs the grant again, ` +
        "and again before a token expires.",
    );
    return EXIT.ok;
  } catch (error) {
    const message = isProtocolFault(error) ? error.message : (error as Error).message;
    say(`indusr: ${message}`);
    return EXIT.failed;
  } finally {
    await endpoint.close();
  }
}

function describeMethod(oauth: OAuthSettings): string {
  const keyNamed = oauth.privateKeyEnv !== undefined || oauth.privateKeyFile !== undefined;
  return oauth.authMethod ?? (keyNamed ? "private_key_jwt" : "client_secret_basic");
}

export async function mcpLogoutCommand(name: string, flags: { readonly cwd?: string }): Promise<number> {
  if (!SERVER_ID_PATTERN.test(name)) {
    say(`indusr: "${name}" is not a server name`);
    return EXIT.usage;
  }
  const store = new FileTokenStore(defaultAuthDir(cliEnv(flags).env));
  const removed = await store.remove(name);
  say(removed ? `Signed out of "${name}" (removed ${store.fileOf(name)}).` : `No stored sign-in for "${name}".`);
  return EXIT.ok;
}
