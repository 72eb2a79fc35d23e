#!/usr/bin/env node
/**
 * Collects the `tools/list` schemas of real npm MCP servers into the fixture
 * corpus (test/fixtures/corpus/<server>.json). Each server is spawned over
 * stdio with the v2 MCP SDK client in its 2025 era, as @indus/endpoint dials a
 * 2025 server.
 *
 *   node scripts/collect-corpus.mjs        # from packages/schema-normalizer
 */
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const outDir = join(here, "..", "test", "fixtures", "corpus");
const require = createRequire(import.meta.url);

/** Absolute path of a package's bin script, read from its package.json. */
function binOf(pkg) {
  const manifestPath = require.resolve(`${pkg}/package.json`);
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
  const bin = typeof manifest.bin === "string" ? manifest.bin : Object.values(manifest.bin)[0];
  return { path: join(dirname(manifestPath), bin), version: manifest.version };
}

const scratch = mkdtempSync(join(tmpdir(), "indus-corpus-"));
const servers = [
  { id: "everything", pkg: "@modelcontextprotocol/server-everything", args: ["stdio"] },
  { id: "filesystem", pkg: "@modelcontextprotocol/server-filesystem", args: [scratch] },
  {
    id: "sdk-zod",
    script: join(here, "zod-fixture-server.mjs"),
    version: "fixture",
    args: [],
  },
  {
    id: "memory",
    pkg: "@modelcontextprotocol/server-memory",
    args: [],
    env: { MEMORY_FILE_PATH: join(scratch, "memory.jsonl") },
  },
];

async function collect(server) {
  const bin = server.script ? { path: server.script, version: server.version } : binOf(server.pkg);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin.path, ...server.args],
    env: { ...process.env, ...server.env },
    stderr: "ignore",
  });
  // Declare every client capability: server-everything registers its sampling,
  // elicitation, roots and task tools only for clients that can serve them.
  const client = new Client(
    { name: "indus-corpus-collector", version: "0.0.0" },
    {
      capabilities: {
        roots: { listChanged: true },
        sampling: {},
        elicitation: { form: {}, url: {} },
        tasks: { requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } },
      },
    },
  );
  await client.connect(transport);
  try {
    const tools = [];
    let cursor;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return {
      server: server.pkg ?? `scripts/${server.script.split("/").pop()}`,
      version: bin.version,
      tools: tools.map((tool) => ({
        name: tool.name,
        inputSchema: tool.inputSchema,
        ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
      })),
    };
  } finally {
    await client.close();
  }
}

try {
  mkdirSync(outDir, { recursive: true });
  for (const server of servers) {
    const corpus = await collect(server);
    const file = join(outDir, `${server.id}.json`);
    writeFileSync(file, `${JSON.stringify(corpus, null, 2)}\n`);
    console.log(`${server.id}: ${corpus.tools.length} tools -> ${file}`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
