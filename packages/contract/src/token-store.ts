/**
 * Where OAuth credentials for remote servers live between runs. The contract
 * names the shape only: the CLI keeps one private file per server, another
 * host may use a keychain. Records are plain JSON so any store can hold them,
 * and they are keyed by server id but bound to the server's URL, so
 * credentials never travel to a server they were not issued for.
 */
import type { JsonObject } from "./json";

/** What signing in to one server left behind. */
export interface StoredCredentials {
  /** The server URL these credentials were issued for; a record for another URL is ignored. */
  readonly serverUrl: string;
  /** The token response (`access_token`, `token_type`, `refresh_token`, `scope`, ...) as issued. */
  readonly tokens?: JsonObject;
  /** When the access token expires, in ms since the epoch (from `expires_in` when it was saved). */
  readonly expiresAt?: number;
  /** The client registration (`client_id`, `client_secret`, `redirect_uris`, ...) when the client registered itself. */
  readonly client?: JsonObject;
  /** Discovery results (protected-resource and authorization-server metadata), so a refresh skips discovery. */
  readonly discovery?: JsonObject;
  /** The DPoP key pair (`alg`, private and public JWK, thumbprint) the tokens are bound to, when `oauth.dpop` is on. */
  readonly dpopKey?: JsonObject;
}

/** Loads, saves and forgets one server's credentials. Implementations never log what they hold. */
export interface TokenStore {
  load(server: string): Promise<StoredCredentials | undefined>;
  save(server: string, credentials: StoredCredentials): Promise<void>;
  /** Forget the server's credentials; `true` when there were some. */
  remove(server: string): Promise<boolean>;
  /**
   * Change the server's record in one step (read, `edit`, write) and return
   * what is stored now, so processes changing it at once keep each other's
   * changes (a refreshed token, a registration). A store shared between
   * processes should offer it; without it, each change is a `save`.
   */
  update?(
    server: string,
    edit: (current: StoredCredentials | undefined) => StoredCredentials,
  ): Promise<StoredCredentials>;
}

/** A store that lives as long as the process: for tests and for hosts that sign in on every run. */
export function memoryTokenStore(): TokenStore {
  const records = new Map<string, StoredCredentials>();
  return {
    load: (server) => Promise.resolve(structuredClone(records.get(server))),
    save: (server, credentials) => {
      records.set(server, structuredClone(credentials));
      return Promise.resolve();
    },
    remove: (server) => Promise.resolve(records.delete(server)),
    update: (server, edit) => {
      const next = structuredClone(edit(structuredClone(records.get(server))));
      records.set(server, next);
      return Promise.resolve(structuredClone(next));
    },
  };
}
