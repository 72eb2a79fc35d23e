/**
 * The secret or private key a client_credentials server's config names, read
 * when connecting: config files never hold them, so a rotated secret or key
 * file counts from the next connect on. A missing one is reported with the
 * variable or file and the config field that named it.
 */
import { createPrivateKey, type JsonWebKey } from "node:crypto";
import { readFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { clientAuthMethod } from "@indus/contract";
import type { HttpServerConfig, JwtSigningAlgorithm, OAuthSettings } from "@indus/contract";

/** Where credentials named by variable are read; `process.env` unless the embedder says otherwise. */
export type CredentialEnv = Readonly<Record<string, string | undefined>>;

/** Thrown when the secret or key a config names is not there; the message names what is missing. */
export class CredentialsUnavailable extends Error {
  override readonly name = "CredentialsUnavailable";
}

/** How a client_credentials client proves itself, with the material read. */
export type ClientProof =
  | { readonly kind: "secret"; readonly method: "client_secret_basic" | "client_secret_post"; readonly secret: string }
  | {
      readonly kind: "private_key_jwt";
      readonly key: Record<string, unknown>;
      readonly algorithm: JwtSigningAlgorithm;
    };

/** True when the server signs in with the machine-to-machine grant. */
export function usesClientCredentials(config: HttpServerConfig): boolean {
  return config.oauth?.grant === "client_credentials";
}

/** The client secret: the literal (already expanded by the config loader) or the named variable. */
export function readClientSecret(oauth: OAuthSettings, env: CredentialEnv): string | undefined {
  if (oauth.clientSecret !== undefined) return oauth.clientSecret;
  const name = oauth.clientSecretEnv;
  if (name === undefined) return undefined;
  const value = env[name];
  if (value === undefined || value === "") {
    throw new CredentialsUnavailable(`environment variable ${name} (oauth.clientSecretEnv) is not set`);
  }
  return value;
}

/** The proof a client_credentials config asks for; the schema has checked that the fields fit together. */
export async function readClientProof(oauth: OAuthSettings, env: CredentialEnv): Promise<ClientProof> {
  const method = clientAuthMethod(oauth);
  if (method !== "private_key_jwt") {
    const secret = readClientSecret(oauth, env);
    if (secret === undefined) throw new CredentialsUnavailable(`${method} needs oauth.clientSecretEnv`);
    return { kind: "secret", method, secret };
  }
  if (oauth.signingAlgorithm === undefined)
    throw new CredentialsUnavailable("private_key_jwt needs oauth.signingAlgorithm");
  return { kind: "private_key_jwt", key: await readPrivateKey(oauth, env), algorithm: oauth.signingAlgorithm };
}

/**
 * The private key as a JWK, from PKCS#8, PKCS#1 or SEC1 PEM or from a JWK:
 * Node parses it here, so a bad key is reported before any request, and the
 * SDK signs with the JWK whatever form the key came in.
 */
async function readPrivateKey(oauth: OAuthSettings, env: CredentialEnv): Promise<Record<string, unknown>> {
  let text: string;
  let source: string;
  if (oauth.privateKeyEnv !== undefined) {
    source = `environment variable ${oauth.privateKeyEnv} (oauth.privateKeyEnv)`;
    const value = env[oauth.privateKeyEnv];
    if (value === undefined || value.trim() === "") throw new CredentialsUnavailable(`${source} is not set`);
    text = value;
  } else if (oauth.privateKeyFile !== undefined) {
    const file = expandHome(oauth.privateKeyFile, env);
    source = `key file ${file} (oauth.privateKeyFile)`;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      throw new CredentialsUnavailable(`${source} cannot be read: ${(error as Error).message}`);
    }
  } else {
    throw new CredentialsUnavailable("private_key_jwt needs oauth.privateKeyEnv or oauth.privateKeyFile");
  }
  try {
    const trimmed = text.trim();
    const key = trimmed.startsWith("{")
      ? createPrivateKey({ key: JSON.parse(trimmed) as JsonWebKey, format: "jwk" })
      : createPrivateKey(trimmed);
    return key.export({ format: "jwk" });
  } catch {
    throw new CredentialsUnavailable(`${source} does not hold a private key (PEM or JWK)`);
  }
}

function expandHome(file: string, env: CredentialEnv): string {
  if (file !== "~" && !file.startsWith("~/")) return file;
  return path.join(env.HOME ?? os.homedir(), file.slice(1));
}
