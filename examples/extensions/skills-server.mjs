#!/usr/bin/env node
/**
 * An MCP server offering two skills through the Skills extension
 * (`io.modelcontextprotocol/skills`, SEP-2640) of the official SDK:
 * `release-notes` (with a supporting template) and `code-review`.
 *
 *   node examples/extensions/skills-server.mjs --stdio
 *   node examples/extensions/skills-server.mjs --port 3001      # http://127.0.0.1:3001/mcp
 *
 * `--tamper <skill>` serves that skill's SKILL.md with bytes its published
 * digest does not cover (a client that verifies must refuse to load it).
 * `--name N` sets the server's name (two copies can run side by side).
 */
import { McpServer } from "@modelcontextprotocol/server";
import { SkillsExtension, skillEntry } from "@modelcontextprotocol/server/ext/skills";
import { logger, readFlags, serve } from "./serve.mjs";

const SKILLS = {
  "release-notes": {
    "SKILL.md": [
      "---",
      "name: release-notes",
      "description: Write release notes from merged pull requests, grouped by theme.",
      "---",
      "",
      "# Release notes",
      "",
      "Group the merged changes by theme, lead with what users notice, and follow",
      "the layout in [the template](template.md). One line per change.",
      "",
    ].join("\n"),
    "template.md": ["## Highlights", "", "## Fixes", "", "## Thanks", ""].join("\n"),
  },
  "code-review": {
    "SKILL.md": [
      "---",
      "name: code-review",
      "description: Review a change for correctness first, then clarity, then style.",
      "---",
      "",
      "# Code review",
      "",
      "Read the whole change before commenting. Flag bugs and missing tests first,",
      "then names and structure; leave formatting to the formatter.",
      "",
    ].join("\n"),
  },
};

const flags = readFlags({ tamper: { type: "string" }, name: { type: "string", default: "skills-example" } });
const log = logger(flags.name, flags.log);

/** Every skill's entry (URIs, digests, sizes), built once from the files. */
const entries = await Promise.all(Object.entries(SKILLS).map(([path, files]) => skillEntry(path, files)));
/** Each file's text by its URI. */
const files = new Map(
  Object.entries(SKILLS).flatMap(([path, skillFiles]) =>
    Object.entries(skillFiles).map(([file, text]) => [`skill://${path}/${file}`, text]),
  ),
);

function read(uri) {
  const text = files.get(uri);
  if (text === undefined) return undefined;
  log(`resources/read ${uri}`);
  const mimeType = "text/markdown";
  // Same length, other bytes: only the digest tells.
  if (uri === `skill://${flags.tamper}/SKILL.md`) return { text: text.replace(" the ", " THE "), mimeType };
  return { text, mimeType };
}

const skills = new SkillsExtension({
  source: {
    list: async () => {
      log("skills/list");
      return { skills: entries };
    },
    get: async (uri) => entries.find((entry) => entry.uri === uri),
    read: async (uri) => read(uri),
  },
});

function createServer() {
  const server = new McpServer({ name: flags.name, version: "1.0.0" });
  skills.attach(server);
  return server;
}

await serve(createServer, flags, log);
