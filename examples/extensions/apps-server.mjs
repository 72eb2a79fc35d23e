#!/usr/bin/env node
/**
 * An MCP server with an MCP App (`io.modelcontextprotocol/ui`, SEP-1865),
 * built with `@modelcontextprotocol/ext-apps`: `show_dice` opens a dice board
 * (`ui://dice/board.html`); the board's button calls `roll_dice`, a tool only
 * the app may call (`visibility: ["app"]`). Every tool call is logged.
 *
 *   node examples/extensions/apps-server.mjs --stdio
 *   node examples/extensions/apps-server.mjs --port 3002 --log /tmp/apps.log
 *
 * The view is one self-contained HTML document: the ext-apps `App` class
 * (its bundled build) inlined in a module script, as hosts load views
 * without network access by default.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import { McpServer } from "@modelcontextprotocol/server";
import { RESOURCE_MIME_TYPE, registerAppResource, registerAppTool } from "@modelcontextprotocol/ext-apps/server";
import { z } from "zod";
import { logger, readFlags, serve } from "./serve.mjs";

const BOARD_URI = "ui://dice/board.html";
/** What the view may do beyond the restrictive default: hosts must keep these as sent. */
const BOARD_META = {
  ui: {
    csp: { connectDomains: ["https://dice.example.invalid"], resourceDomains: [] },
    permissions: { clipboardWrite: {} },
    prefersBorder: true,
  },
};

const flags = readFlags({ name: { type: "string", default: "apps-example" } });
const log = logger(flags.name, flags.log);

/** The ext-apps `App` bundle with its `export {…}` turned into a local object, for an inline module script. */
function inlineAppBundle() {
  const file = createRequire(import.meta.url).resolve("@modelcontextprotocol/ext-apps/app-with-deps");
  const source = fs.readFileSync(file, "utf8");
  const at = source.lastIndexOf("export{");
  const names = source
    .slice(at + "export{".length, source.indexOf("}", at))
    .split(",")
    .map((pair) => pair.split(" as "))
    .map(([local, exported]) => `${exported ?? local}:${local}`);
  return `${source.slice(0, at)}const extApps={${names.join(",")}};`;
}

const VIEW_SCRIPT = `
const app = new extApps.App({ name: "dice-board", version: "1.0.0" });
const result = document.getElementById("result");
const show = (toolResult) => {
  const text = (toolResult.content ?? []).find((block) => block.type === "text")?.text ?? "";
  result.textContent = text;
};
app.ontoolresult = (params) => show(params);
document.getElementById("roll").addEventListener("click", async () => {
  result.textContent = "rolling…";
  try {
    show(await app.callServerTool({ name: "roll_dice", arguments: { sides: 6 } }));
  } catch (error) {
    result.textContent = "failed: " + (error?.message ?? error);
  }
});
await app.connect();
document.body.dataset.connected = "true";
`;

const BOARD_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Dice board</title>
<style>
  body { font: 16px system-ui, sans-serif; margin: 16px; background: #fffbe8; color: #222; }
  h1 { font-size: 22px; margin: 0 0 12px; }
  button { font-size: 18px; padding: 8px 20px; border-radius: 8px; border: 2px solid #a66; background: #fdd; }
  #result { margin-top: 12px; font-size: 20px; min-height: 1.5em; }
</style>
</head>
<body>
<h1>Dice board</h1>
<button id="roll" type="button">Roll a d6</button>
<div id="result">No roll yet.</div>
<script type="module">
${inlineAppBundle()}
${VIEW_SCRIPT}
</script>
</body>
</html>
`;

function roll(sides) {
  return 1 + Math.floor(Math.random() * sides);
}

function createServer() {
  const server = new McpServer({ name: flags.name, version: "1.0.0" });
  registerAppResource(
    server,
    "dice-board",
    BOARD_URI,
    { description: "A dice board with a roll button", _meta: BOARD_META },
    async () => {
      log(`resources/read ${BOARD_URI}`);
      return { contents: [{ uri: BOARD_URI, mimeType: RESOURCE_MIME_TYPE, text: BOARD_HTML, _meta: BOARD_META }] };
    },
  );
  registerAppTool(
    server,
    "show_dice",
    {
      description: "Show a dice board the user can roll from.",
      _meta: { ui: { resourceUri: BOARD_URI } },
    },
    async () => {
      log("tools/call show_dice");
      return { content: [{ type: "text", text: "The dice board is open: press the button to roll a d6." }] };
    },
  );
  registerAppTool(
    server,
    "roll_dice",
    {
      description: "Roll one die with the given number of sides.",
      inputSchema: { sides: z.number().int().min(2).max(100) },
      _meta: { ui: { resourceUri: BOARD_URI, visibility: ["app"] } },
    },
    async ({ sides }) => {
      const value = roll(sides);
      log(`tools/call roll_dice sides=${sides} -> ${value}`);
      return { content: [{ type: "text", text: `Rolled a d${sides}: ${value}` }] };
    },
  );
  return server;
}

await serve(createServer, flags, log);
