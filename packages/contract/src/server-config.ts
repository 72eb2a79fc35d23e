/**
 * How to reach one MCP server, as a discriminated union on `transport` so a
 * stdio server and an HTTP server cannot be confused at the type level.
 * `env` and `headers` are plain records: JS keeps string keys in insertion
 * order, so declaration order survives every copy.
 */
import { z } from "zod";
import { SERVER_ID_PATTERN } from "./names";
import { PROTOCOL_MODES } from "./protocol-era";
import { TRUST_MODES } from "./trust-mode";

const stringMap = z.record(z.string(), z.string());
const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" });
const positiveMs = z.number().int().positive();
const toolGlobs = z.array(z.string().min(1));

/** Reconnect with exponential backoff after a server dies. Absent: remote servers reconnect (5 attempts from 1 s), stdio servers do not. */
export const ReconnectPolicySchema = z.strictObject({
  maxAttempts: z.number().int().min(1),
  initialDelayMs: positiveMs.default(500),
  maxDelayMs: positiveMs.default(30_000),
});

/** Options every transport shares: deadlines and tool filters. */
const sharedFields = {
  id: z.string().regex(SERVER_ID_PATTERN, "must start with a letter and hold only letters, digits, _ or -"),
  /** Deadline for spawning/connecting and the `initialize` handshake. */
  startupTimeoutMs: positiveMs.optional(),
  /** Deadline for each `tools/list` page. */
  listTimeoutMs: positiveMs.optional(),
  /** Deadline for one `tools/call` (progress resets it, up to a total bound). */
  toolTimeoutMs: positiveMs.optional(),
  /** Only tools matching one of these globs are mounted. */
  includeTools: toolGlobs.optional(),
  /** Tools matching one of these globs are never mounted; wins over include. */
  excludeTools: toolGlobs.optional(),
  reconnect: ReconnectPolicySchema.optional(),
  /** Keep this server's tools out of the model's tool list: the agent reaches them through a search tool. */
  defer: z.boolean().optional(),
  /**
   * Which MCP era to speak: `auto` (absent means `auto`) negotiates once and
   * remembers the verdict; `2026-07-28` or `legacy` pins one era.
   */
  protocol: z.enum(PROTOCOL_MODES).optional(),
  /** How far its definitions are trusted: `pin` (absent means `pin`), `strict` or `off` (see `TrustMode`). */
  trust: z.enum(TRUST_MODES).optional(),
};

/** OAuth grants a remote server can be signed in with. */
export const OAUTH_GRANTS = ["authorization_code", "client_credentials"] as const;
/** How a client_credentials client proves itself at the token endpoint. */
export const CLIENT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "private_key_jwt"] as const;
/** Asymmetric JWS algorithms for a private_key_jwt client assertion. */
export const JWT_SIGNING_ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
] as const;

const envVarName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must name an environment variable");

/** Fields that only mean something for one grant, with what to say when the other grant has them. */
const CLIENT_CREDENTIALS_ONLY = [
  "authMethod",
  "privateKeyEnv",
  "privateKeyFile",
  "signingAlgorithm",
  "issuer",
] as const;
const AUTHORIZATION_CODE_ONLY = ["callbackPort", "clientMetadataUrl"] as const;

/** How a client_credentials client authenticates: as configured, else by the key when one is named, else the secret (basic). */
export function clientAuthMethod(
  oauth: Pick<OAuthSettings, "authMethod" | "privateKeyEnv" | "privateKeyFile">,
): NonNullable<OAuthSettings["authMethod"]> {
  const keyNamed = oauth.privateKeyEnv !== undefined || oauth.privateKeyFile !== undefined;
  return oauth.authMethod ?? (keyNamed ? "private_key_jwt" : "client_secret_basic");
}

/**
 * OAuth 2.1 sign-in settings for a remote server. All optional: without them
 * the client discovers the authorization server and registers itself
 * (client ID metadata document or dynamic registration) and the user signs in
 * in a browser (`grant` `authorization_code`, the default). A pre-registered
 * client gives `clientId` (and a secret for a confidential client: config
 * files hold `clientSecret` as a `${VAR}` reference, or name the variable in
 * `clientSecretEnv`).
 *
 * `grant: "client_credentials"` is the machine-to-machine grant (headless
 * agents, CI): no browser, the client authenticates with a secret
 * (`client_secret_basic`, the default, or `client_secret_post`) or a signed
 * JWT (`private_key_jwt`, key from `privateKeyEnv` or `privateKeyFile`).
 * Name the secret or key (`clientSecretEnv`, `privateKeyEnv`,
 * `privateKeyFile`) rather than write it here: the endpoint reads it when it
 * connects.
 */
const OAuthFieldsSchema = z.strictObject({
  /** `authorization_code` (a user signs in; the default) or `client_credentials` (machine-to-machine). */
  grant: z.enum(OAUTH_GRANTS).optional(),
  clientId: z.string().min(1).optional(),
  clientSecret: z.string().min(1).optional(),
  /** The environment variable holding the client secret (read when connecting). */
  clientSecretEnv: envVarName.optional(),
  /** Scopes to ask for when neither the server's challenge nor its metadata names any. */
  scopes: z.array(z.string().min(1)).optional(),
  /** Fixed port for the loopback redirect (`http://127.0.0.1:<port>/callback`); a free one otherwise. */
  callbackPort: z.number().int().min(1).max(65_535).optional(),
  /** An https URL serving this client's metadata document, used as its client_id where the server accepts one. */
  clientMetadataUrl: z.url({ protocol: /^https$/, error: "must be an https:// URL" }).optional(),
  /** client_credentials: how the client authenticates; `private_key_jwt` when a key is named, else `client_secret_basic`. */
  authMethod: z.enum(CLIENT_AUTH_METHODS).optional(),
  /** private_key_jwt: the environment variable holding the private key (PKCS#8 PEM or a JWK as JSON). */
  privateKeyEnv: envVarName.optional(),
  /** private_key_jwt: a file holding the private key (PKCS#8 PEM or a JWK as JSON). */
  privateKeyFile: z.string().min(1).optional(),
  /** private_key_jwt: the JWS algorithm the key signs with. */
  signingAlgorithm: z.enum(JWT_SIGNING_ALGORITHMS).optional(),
  /** client_credentials: the authorization server's issuer; credentials go to no other one. */
  issuer: httpUrl.optional(),
  /** Ask for DPoP-bound tokens (RFC 9449): every request carries a proof signed by a key kept with the sign-in. */
  dpop: z.boolean().optional(),
});

type OAuthFields = z.output<typeof OAuthFieldsSchema>;
type Problem = (field: string, message: string) => void;

export const OAuthSettingsSchema = OAuthFieldsSchema.superRefine((oauth, ctx) => {
  const problem: Problem = (field, message) => ctx.addIssue({ code: "custom", path: [field], message });
  if (oauth.clientSecret !== undefined && oauth.clientSecretEnv !== undefined)
    problem("clientSecretEnv", "give the secret once: clientSecret or clientSecretEnv, not both");
  if (oauth.grant !== "client_credentials") {
    for (const field of CLIENT_CREDENTIALS_ONLY)
      if (oauth[field] !== undefined) problem(field, 'only applies with grant = "client_credentials"');
    return;
  }
  clientCredentialsProblems(oauth, problem);
});

/** What the client_credentials grant needs: the client's id, and a secret or a key per its auth method. */
function clientCredentialsProblems(oauth: OAuthFields, problem: Problem): void {
  for (const field of AUTHORIZATION_CODE_ONLY)
    if (oauth[field] !== undefined) problem(field, "only applies to the authorization_code grant (a browser sign-in)");
  if (oauth.clientId === undefined) problem("clientId", "the client_credentials grant needs the client's id");
  const secretGiven = oauth.clientSecret !== undefined || oauth.clientSecretEnv !== undefined;
  const method = clientAuthMethod(oauth);
  if (method !== "private_key_jwt") {
    if (!secretGiven) problem("clientSecretEnv", `${method} needs the client secret: name its variable here`);
    for (const field of ["privateKeyEnv", "privateKeyFile", "signingAlgorithm"] as const)
      if (oauth[field] !== undefined) problem(field, "only applies to authMethod private_key_jwt");
    return;
  }
  if (oauth.privateKeyEnv !== undefined && oauth.privateKeyFile !== undefined)
    problem("privateKeyFile", "give the key once: privateKeyEnv or privateKeyFile, not both");
  if (oauth.privateKeyEnv === undefined && oauth.privateKeyFile === undefined)
    problem("privateKeyEnv", "private_key_jwt needs the private key: privateKeyEnv or privateKeyFile");
  if (oauth.signingAlgorithm === undefined)
    problem("signingAlgorithm", `private_key_jwt needs the key's algorithm (${JWT_SIGNING_ALGORITHMS.join(", ")})`);
  if (secretGiven)
    problem(oauth.clientSecret !== undefined ? "clientSecret" : "clientSecretEnv", "private_key_jwt uses no secret");
}

export const StdioServerConfigSchema = z.strictObject({
  transport: z.literal("stdio"),
  ...sharedFields,
  command: z.string().min(1, "must name the program to run"),
  args: z.array(z.string()).default([]),
  env: stringMap.default({}),
  /** The user's whole environment reaches the server (default, as in Claude Code); false: only a safe base set. */
  inheritEnv: z.boolean().optional(),
  /** Codex's `env_vars`: only the safe base set and these variables of the user's environment reach the server. */
  envVars: z.array(envVarName).optional(),
  cwd: z.string().min(1).optional(),
});

export const SseServerConfigSchema = z.strictObject({
  transport: z.literal("sse"),
  ...sharedFields,
  url: httpUrl,
  headers: stringMap.default({}),
  oauth: OAuthSettingsSchema.optional(),
});

export const StreamableHttpServerConfigSchema = z.strictObject({
  transport: z.literal("streamable-http"),
  ...sharedFields,
  url: httpUrl,
  headers: stringMap.default({}),
  oauth: OAuthSettingsSchema.optional(),
});

export const ServerConfigSchema = z.discriminatedUnion("transport", [
  StdioServerConfigSchema,
  SseServerConfigSchema,
  StreamableHttpServerConfigSchema,
]);

export const BridgeConfigSchema = z.strictObject({
  servers: z.array(ServerConfigSchema),
});

export type ReconnectPolicy = z.output<typeof ReconnectPolicySchema>;
export type OAuthSettings = z.output<typeof OAuthSettingsSchema>;
export type OAuthGrant = (typeof OAUTH_GRANTS)[number];
export type ClientAuthMethod = (typeof CLIENT_AUTH_METHODS)[number];
export type JwtSigningAlgorithm = (typeof JWT_SIGNING_ALGORITHMS)[number];
export type StdioServerConfig = z.output<typeof StdioServerConfigSchema>;
export type SseServerConfig = z.output<typeof SseServerConfigSchema>;
export type StreamableHttpServerConfig = z.output<typeof StreamableHttpServerConfigSchema>;
export type ServerConfig = z.output<typeof ServerConfigSchema>;
/** A server reached over HTTP (either transport): the ones that can sign in. */
export type HttpServerConfig = SseServerConfig | StreamableHttpServerConfig;
/** What a caller may write: defaulted fields (`args`, `env`, `headers`) optional. */
export type ServerConfigInput = z.input<typeof ServerConfigSchema>;
export type TransportKind = ServerConfig["transport"];
export const TRANSPORT_KINDS = ["stdio", "sse", "streamable-http"] as const satisfies readonly TransportKind[];

/** The set of servers a fleet connects on start. */
export interface BridgeConfig {
  readonly servers: readonly ServerConfig[];
}

/** One problem in a config value: where (`servers.2.url`) and what. */
export interface ConfigIssue {
  readonly path: string;
  readonly message: string;
}

export type ConfigParse<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly issues: readonly ConfigIssue[] };

export function toParse<T>(result: { success: true; data: T } | { success: false; error: z.ZodError }): ConfigParse<T> {
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    issues: result.error.issues.map((issue) => ({
      path: issue.path.length === 0 ? "(root)" : issue.path.map(String).join("."),
      message: issue.message,
    })),
  };
}

/** Validate one untrusted server config; never throws. */
export function parseServerConfig(value: unknown): ConfigParse<ServerConfig> {
  return toParse(ServerConfigSchema.safeParse(value));
}

/** Validate an untrusted `{servers: [...]}`; never throws. */
export function parseBridgeConfig(value: unknown): ConfigParse<BridgeConfig> {
  return toParse(BridgeConfigSchema.safeParse(value));
}

/** A stdio server with no args or env, as the common case. */
export function stdioServer(
  id: string,
  command: string,
  args: readonly string[] = [],
  env: Record<string, string> = {},
): StdioServerConfig {
  return { transport: "stdio", id, command, args: [...args], env: { ...env } };
}

/** A legacy SSE server. */
export function sseServer(id: string, url: string, headers: Record<string, string> = {}): SseServerConfig {
  return { transport: "sse", id, url, headers: { ...headers } };
}

/** A Streamable HTTP server (falls back to SSE when the server is legacy). */
export function streamableHttpServer(
  id: string,
  url: string,
  headers: Record<string, string> = {},
): StreamableHttpServerConfig {
  return { transport: "streamable-http", id, url, headers: { ...headers } };
}
