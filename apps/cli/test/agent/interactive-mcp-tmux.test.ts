/**
 * MCP resources and prompts, and rewinding files, in the interactive session
 * on a real terminal (tmux): `@everything:` completes resource URIs and
 * attaches one, `/everything:simple-prompt` runs the server's prompt, and
 * `/rewind` puts back a file the agent wrote.
 */
import fs from "node:fs";
import path from "node:path";
import { callTool, say } from "./fake-model/fake-model-server";
import { everythingServer } from "./support/agent-cli";
import { useAgentTest } from "./support/agent-test";
import { waitForPrompt } from "./support/tmux";

jest.setTimeout(180_000);

const t = useAgentTest();

test("@server:uri completes and attaches, /server:prompt runs, /rewind restores a file the agent wrote", async () => {
  const notes = path.join(t.sandbox.cwd, "notes.txt");
  fs.writeFileSync(notes, "original\n");
  const fake = await t.model([
    (request) => {
      const last = request.messages.at(-1)!.text;
      return say(
        last.includes('<resource server="everything" uri="demo://resource/static/document/architecture.md">')
          ? `attached ${last.length > 200 ? "with text" : "empty"}`
          : "nothing attached",
      );
    },
    (request) => say(`prompt said: ${request.messages.at(-1)!.text}`),
    callTool("read", { path: "notes.txt" }),
    callTool("write", { path: "notes.txt", content: "overwritten\n" }),
    say("wrote it"),
  ]);
  const mcp = t.sandbox.mcpConfig({ everything: everythingServer });
  const tmux = t.terminal(["--mcp", mcp, "--allow", "write"], fake);
  await tmux.waitFor(/everything ✓/);
  await waitForPrompt(tmux);

  // `@every` + Tab completes the server; a URI prefix + Tab completes the resource.
  tmux.type("summarise @every", false);
  tmux.keys("Tab");
  await tmux.waitFor(/› summarise @everything:\s*$/m);
  tmux.type("demo://resource/static/document/arch", false);
  tmux.keys("Tab");
  await tmux.waitFor(/@everything:demo:\/\/resource\/static\/document\/architecture\.md/);
  tmux.keys("Enter");
  await tmux.waitFor(/📎 @everything:demo:\/\/resource\/static\/document\/architecture\.md \(\d+ chars\)/);
  await tmux.waitFor(/attached with text/);
  await waitForPrompt(tmux);

  // A server prompt as a slash command.
  tmux.type("/everything:simple-prompt");
  await tmux.waitFor(/prompt said: This is a simple prompt without arguments\./);
  await waitForPrompt(tmux);

  // The agent overwrites notes.txt; /rewind 3 puts it back.
  tmux.type("overwrite notes");
  await tmux.waitFor(/wrote it/);
  await waitForPrompt(tmux);
  expect(fs.readFileSync(notes, "utf8")).toBe("overwritten\n");
  tmux.type("/rewind");
  await tmux.waitFor(/\/rewind <n> puts back/);
  expect(tmux.screen()).toMatch(/^3\s+1 file\s+overwrite notes/m);
  tmux.type("/rewind 3");
  await tmux.waitFor(/restored \S*notes\.txt/);
  expect(fs.readFileSync(notes, "utf8")).toBe("original\n");
});
