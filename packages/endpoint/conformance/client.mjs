#!/usr/bin/env node
/**
 * The client adapter the MCP conformance suite drives: it runs
 * `<this command> <server-url>` with MCP_CONFORMANCE_SCENARIO set. It connects
 * with @indus/endpoint (Streamable HTTP, falling back to SSE), lists the tools
 * and calls the ones the scenario expects. The module under test comes from
 * INDUS_ENDPOINT_MODULE (a fresh bundle of src/, see run.mjs) or dist/.
 *
 * auth/* scenarios sign in through the endpoint's OAuth support (the SDK's
 * flow over an in-memory token store). The suite's authorization server
 * approves at once, so the "browser" is one request whose redirect carries
 * the code. Elicitations are accepted with nothing filled in, so the
 * schema's defaults are what the server gets back. A pre-registered client comes from MCP_CONFORMANCE_CONTEXT, as a
 * user's config would give it.
 *
 * sep-2640-client-* (Skills) scenarios: the adapter lists the server's skills
 * (a host's registry, built from the listing alone); the verify-* ones then
 * load the first skill as a user running `/<server>:<skill>` would
 * (`readSkill`: SKILL.md read and verified) and, once it loads, read each
 * supporting file it lists, as a model following the skill would. A refused
 * skill is logged and nothing more of it is read.
 *
 * auth/client-credentials-* scenarios use the client_credentials grant: the
 * context's secret or private key goes into an environment variable and the
 * config names it, as a CI job's config would (no sign-in, no token store).
 */
import { pathToFileURL } from "node:url";

const modulePath = process.env.INDUS_ENDPOINT_MODULE;
const { createServerEndpoint } = await import(modulePath ? pathToFileURL(modulePath).href : "../dist/index.js");

const url = process.argv[process.argv.length - 1];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";

/** Arguments for the tools the scenarios define; anything else is called with {}. */
const ARGUMENTS = { add_numbers: { a: 5, b: 3 } };
/**
 * Arguments built from the listing: `json_schema_echo` gets the 2020-12 tool's
 * inputSchema exactly as the server sent it (`descriptor.wire`).
 */
const LISTED_ARGUMENTS = {
  json_schema_echo: (tools) => ({
    schema: tools.find((tool) => tool.ref.name === "json_schema_2020_12_tool")?.descriptor.wire?.inputSchema ?? {},
  }),
};
const REDIRECT_URL = "http://localhost:3000/callback";
/** The suite's client ID metadata document URL, used where the server accepts URL client ids. */
const CLIENT_METADATA_URL = "https://conformance-test.local/client-metadata.json";

/** One run's sign-in lives in memory (the contract's TokenStore shape). */
function memoryTokenStore() {
  const records = new Map();
  return {
    load: async (server) => structuredClone(records.get(server)),
    save: async (server, record) => void records.set(server, structuredClone(record)),
    remove: async (server) => records.delete(server),
  };
}

/** The suite's context for this scenario (pre-registered client credentials), if any. */
function context() {
  try {
    return JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}");
  } catch {
    return {};
  }
}

/** Follow the authorization URL one hop: the suite's server redirects straight back with the code. */
async function approve(authorizationUrl) {
  const response = await fetch(authorizationUrl, { redirect: "manual" });
  const location = response.headers.get("location");
  if (!location) throw new Error(`no redirect from ${authorizationUrl.href} (HTTP ${response.status})`);
  return new URL(location).searchParams;
}

function oauthSettings() {
  const ctx = context();
  return {
    clientMetadataUrl: CLIENT_METADATA_URL,
    // The DPoP scenarios: ask for sender-constrained tokens, as a config opting in would.
    ...(scenario.startsWith("auth/dpop") ? { dpop: true } : {}),
    ...(ctx.client_id ? { clientId: ctx.client_id } : {}),
    ...(ctx.client_secret ? { clientSecret: ctx.client_secret } : {}),
  };
}

/** The machine-to-machine grant: client id from the context, secret or key through a named variable. */
function clientCredentialsSettings() {
  const ctx = context();
  if (ctx.private_key_pem) {
    return {
      grant: "client_credentials",
      clientId: ctx.client_id,
      privateKeyEnv: "INDUS_CONFORMANCE_CLIENT_KEY",
      signingAlgorithm: ctx.signing_algorithm,
    };
  }
  return { grant: "client_credentials", clientId: ctx.client_id, clientSecretEnv: "INDUS_CONFORMANCE_CLIENT_SECRET" };
}

function credentialEnv() {
  const ctx = context();
  return {
    ...(ctx.private_key_pem ? { INDUS_CONFORMANCE_CLIENT_KEY: ctx.private_key_pem } : {}),
    ...(ctx.client_secret ? { INDUS_CONFORMANCE_CLIENT_SECRET: ctx.client_secret } : {}),
  };
}

const machine = scenario.startsWith("auth/client-credentials");
const auth = scenario.startsWith("auth/") && !machine;
const settings = machine ? clientCredentialsSettings() : auth ? oauthSettings() : undefined;
const endpoint = createServerEndpoint(
  { transport: "streamable-http", id: "conformance", url, headers: {}, ...(settings ? { oauth: settings } : {}) },
  undefined,
  {
    ...(machine ? { env: credentialEnv() } : {}),
    timeouts: { startupMs: 20_000, listMs: 20_000, callMs: 20_000 },
    // A user who accepts every question as asked: the endpoint fills in the schema's defaults (SEP-1034).
    host: { elicit: async () => ({ action: "accept", content: {} }) },
    ...(auth
      ? {
          oauth: {
            store: memoryTokenStore(),
            clientName: "indus conformance client",
            redirectUrl: REDIRECT_URL,
            authorize: approve,
          },
        }
      : {}),
  },
);
/** The Skills scenarios: list; the verify-* ones load the first skill and, if it loads, read its other files. */
async function useSkills() {
  const skills = await endpoint.listSkills();
  console.log(`[${scenario}] skills: ${skills.map((skill) => skill.uri).join(", ")}`);
  if (!scenario.startsWith("sep-2640-client-verify") || skills.length === 0) return;
  const [skill] = skills;
  try {
    const manifest = await endpoint.readSkill(skill);
    console.log(`[${scenario}] loaded ${manifest.uri}`);
  } catch (error) {
    console.log(`[${scenario}] refused ${skill.uri}: ${error?.message ?? error}`);
    return;
  }
  const files = Array.isArray(skill.resources) ? skill.resources.filter((file) => file.uri !== skill.uri) : [];
  for (const file of files) await endpoint.readSkill(skill, file.uri);
}

/** Every other scenario: list the tools and make the calls it expects. */
async function useTools() {
  const tools = await endpoint.listTools();
  console.log(
    `[${scenario}] connected to ${JSON.stringify(endpoint.serverInfo)}; tools: ${tools.map((t) => t.ref.name).join(", ")}`,
  );
  // 2026-era scenarios name the calls to make (`toolCalls` in the context); the others: each tool once.
  const calls = Array.isArray(context().toolCalls)
    ? context().toolCalls
    : tools.map((tool) => ({
        name: tool.ref.name,
        arguments: LISTED_ARGUMENTS[tool.ref.name]?.(tools) ?? ARGUMENTS[tool.ref.name] ?? {},
      }));
  for (const call of calls) {
    try {
      const result = await endpoint.invoke(call.name, call.arguments ?? {});
      console.log(`[${scenario}] ${call.name} -> ${JSON.stringify(result)}`);
    } catch (error) {
      // A scenario server that lists tools but answers no tools/call at all (-32601) tests the listing only.
      if (error?.rpcCode !== -32601) throw error;
      console.log(`[${scenario}] ${call.name}: the server answers no tools/call (-32601)`);
    }
  }
}

try {
  await endpoint.open();
  await (scenario.startsWith("sep-2640-client") ? useSkills() : useTools());
} catch (error) {
  console.error(`[${scenario}] ${error?.kind ?? "error"}: ${error?.message ?? error}`);
  process.exitCode = 1;
} finally {
  await endpoint.close();
}
