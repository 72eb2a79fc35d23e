/**
 * The DPoP key (RFC 9449) a stored sign-in's tokens are bound to. The SDK
 * makes the key pair, signs every proof and answers nonce challenges
 * (`DpopSession`); the key only has to outlive the process, because the
 * access and refresh tokens on disk are useless without it. So it is made
 * extractable and kept in the server's token record, next to the refresh
 * token it protects.
 */
import { DpopSession, generateDpopKeyPair, type DpopKeyPair } from "@modelcontextprotocol/client";
import type { JsonWebKey } from "node:crypto";
import type { JsonObject } from "@indus/contract";

/** The one algorithm used: ES256 is what authorization servers support most (and the conformance suite asks for). */
const ALG = "ES256";
const EC_P256 = { name: "ECDSA", namedCurve: "P-256" } as const;

interface StoredDpopKey {
  readonly alg: typeof ALG;
  readonly privateJwk: JsonWebKey;
  readonly publicJwk: JsonWebKey;
  readonly thumbprint: string;
}

function isStoredDpopKey(value: JsonObject | undefined): value is JsonObject & StoredDpopKey {
  return (
    value?.alg === ALG &&
    typeof value.thumbprint === "string" &&
    typeof value.privateJwk === "object" &&
    typeof value.publicJwk === "object"
  );
}

/** A session over the stored key, or over a new one handed to `save` first. */
export async function dpopSession(
  stored: JsonObject | undefined,
  save: (key: JsonObject) => Promise<void>,
): Promise<DpopSession> {
  if (isStoredDpopKey(stored)) return DpopSession.create({ keyPair: await importKeyPair(stored) });
  const keyPair = await generateDpopKeyPair({ alg: ALG, extractable: true });
  const privateJwk = await crypto.subtle.exportKey("jwk", keyPair.privateKey);
  await save({
    alg: ALG,
    privateJwk: privateJwk as JsonObject,
    publicJwk: keyPair.publicJwk as JsonObject,
    thumbprint: keyPair.thumbprint,
  });
  return DpopSession.create({ keyPair });
}

async function importKeyPair(stored: StoredDpopKey): Promise<DpopKeyPair> {
  const [privateKey, publicKey] = await Promise.all([
    crypto.subtle.importKey("jwk", stored.privateJwk, EC_P256, false, ["sign"]),
    crypto.subtle.importKey("jwk", stored.publicJwk, EC_P256, true, ["verify"]),
  ]);
  return {
    privateKey,
    publicKey,
    publicJwk: stored.publicJwk,
    thumbprint: stored.thumbprint,
    alg: ALG,
  };
}
