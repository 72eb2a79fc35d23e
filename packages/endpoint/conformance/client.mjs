#!/usr/bin/env node
/**
 * The client adapter the MCP conformance suite drives: it runs
 * `<this command> <server-url>` with MCP_CONFORMANCE_SCENARIO set. It connects
 * with @indus/endpoint (Streamable HTTP, falling back to SSE), lists the tools
 * and calls the ones the scenario expects. The module under test comes from
 * INDUS_ENDPOINT_MODULE (a fresh bundle of src/, see run.mjs) or dist/.
 */
import { pathToFileURL } from "node:url";

const modulePath = process.env.INDUS_ENDPOINT_MODULE;
const { createServerEndpoint } = await import(modulePath ? pathToFileURL(modulePath).href : "../dist/index.js");

const url = process.argv[process.argv.length - 1];
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";

/** Arguments for the tools the scenarios define; anything else is called with {}. */
const ARGUMENTS = { add_numbers: { a: 5, b: 3 } };

const endpoint = createServerEndpoint(
  { transport: "streamable-http", id: "conformance", url, headers: {} },
  undefined,
  { timeouts: { startupMs: 20_000, listMs: 20_000, callMs: 20_000 } },
);
try {
  await endpoint.open();
  const tools = await endpoint.listTools();
  console.log(
    `[${scenario}] connected to ${JSON.stringify(endpoint.serverInfo)}; tools: ${tools.map((t) => t.ref.name).join(", ")}`,
  );
  for (const tool of tools) {
    const result = await endpoint.invoke(tool.ref.name, ARGUMENTS[tool.ref.name] ?? {});
    console.log(`[${scenario}] ${tool.ref.name} -> ${JSON.stringify(result)}`);
  }
} catch (error) {
  console.error(`[${scenario}] ${error?.kind ?? "error"}: ${error?.message ?? error}`);
  process.exitCode = 1;
} finally {
  await endpoint.close();
}
