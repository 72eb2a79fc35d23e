/**
 * On a real terminal (tmux), the interactive session answers what a mounted
 * server-everything (stdio) asks mid-call: `trigger-elicitation-request`
 * through the terminal form (required mark, defaults, re-asked answers that
 * fail their checks), `trigger-sampling-request` through the session's
 * own model once the user approves, `trigger-url-elicitation` by showing the
 * link; `/add-dir` adds a root and the server hears of it.
 */
import fs from "node:fs";
import path from "node:path";
import { waitFor } from "@indus/testkit";
import { callTool, lastToolResults, say, type FakeModelServer } from "./fake-model/fake-model-server";
import { askingServer, everythingServer } from "./support/agent-cli";
import { useAgentTest } from "./support/agent-test";
import type { TmuxSession } from "./support/tmux";

jest.setTimeout(180_000);

const t = useAgentTest();

/** The interactive session on a terminal with one mounted server whose tools may run without asking. */
function startSession(model: FakeModelServer, id: string, server: Record<string, unknown>): TmuxSession {
  const mcp = t.sandbox.mcpConfig({ [id]: server });
  return t.terminal(["--mcp", mcp, "--allow", `${id}__*`], model);
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Wait for the `n`th time `question` is asked, then type the answer. */
async function answer(session: TmuxSession, question: string, typed: string, nth = 1): Promise<void> {
  await session.waitForCount(new RegExp(`\\? ${escape(question)}.*›`), nth);
  session.type(typed);
}

test("the terminal form answers an elicitation, and an approved sampling request is answered by the session's model", async () => {
  const fake = await t.model([
    callTool("everything__trigger-elicitation-request", {}),
    (request) => say(`form said: ${lastToolResults(request)[0]!.text.split("\n")[0]}`),
    callTool("everything__trigger-sampling-request", { prompt: "name a colour", maxTokens: 25 }),
    (request) =>
      say(request.system === "You are a helpful test server." ? "teal" : `unexpected: ${request.system}`, {
        usage: { input: 11, output: 2 },
      }),
    (request) => say(`sampling said: ${/"text": "([^"]*)"/.exec(lastToolResults(request)[0]!.text)?.[1]}`),
    callTool("everything__trigger-url-elicitation", {
      url: "https://consent.example/approve?id=7",
      message: "Approve the deployment in your browser.",
    }),
    (request) => say(`link said: ${lastToolResults(request)[0]!.text.split("\n")[0]}`),
    callTool("everything__get-roots-list", {}),
    (request) => say(`roots said: ${lastToolResults(request)[0]!.text.split("\n")[0]}`),
  ]);
  const tmux = startSession(fake, "everything", everythingServer);
  await tmux.waitFor(/everything ✓/);
  await tmux.waitFor(/^›\s*$/m);

  tmux.type("ask me things");
  await tmux.waitFor(/◆ everything asks for input/);
  const intro = await tmux.waitFor(/fill in the form\?/);
  expect(intro).toContain("Please provide inputs for the following fields:");
  expect(intro).toContain("13 fields · * required");
  tmux.type("y");

  const nameLine = await tmux.waitFor(/String\* \(name\) — Your full, legal name/);
  expect(nameLine).toMatch(/\? name ›/);
  await answer(tmux, "name", "");
  await tmux.waitFor(/✗ name: required/);
  await answer(tmux, "name", "Ada Lovelace", 2);
  await answer(tmux, "check (y/n)", "y");
  const firstLine = await tmux.waitFor(/\? firstLine \[It was a dark and stormy night\.\] ›/);
  expect(firstLine).toContain("String with default (firstLine)");
  tmux.type("");
  await answer(tmux, "email (email)", "ada@");
  await tmux.waitFor(/✗ email: expected an email address/);
  await answer(tmux, "email (email)", "ada@example.com", 2);
  await answer(tmux, "homepage (uri)", "https://ada.example");
  await answer(tmux, "birthdate (date)", "1815-12-10");
  await answer(tmux, "integer (whole number 1–100) [42]", "500");
  await tmux.waitFor(/✗ integer: must be at most 100/);
  await answer(tmux, "integer (whole number 1–100) [42]", "7", 2);
  await answer(tmux, "number (number 0–1000) [3.14]", "");
  const friends = await tmux.waitFor(/\? untitledSingleSelectEnum/);
  expect(friends).toMatch(/1\) Monica\s+2\) Rachel\s+3\) Joey/);
  await answer(tmux, "untitledSingleSelectEnum", "3");
  await answer(tmux, "untitledMultipleSelectEnum", "1, piano");
  await answer(tmux, "titledSingleSelectEnum", "wonder woman");
  await answer(tmux, "titledMultipleSelectEnum", "");
  await answer(tmux, "legacyTitledEnum", "Dogs");
  const summary = await tmux.waitFor(/send to everything\? \[a\]ccept/);
  expect(summary).toMatch(/untitledMultipleSelectEnum: Guitar, Piano/);
  expect(summary).toMatch(/legacyTitledEnum: Dogs/);
  tmux.type("a");
  await tmux.waitFor(/◆ everything input: accepted/);
  await tmux.waitFor(/form said: ✅ User provided the requested information!/);

  const formResult = lastToolResults(fake.requests[1]!)[0]!.text;
  expect(formResult).toContain("- Name: Ada Lovelace");
  expect(formResult).toContain("- Email: ada@example.com");
  expect(formResult).toContain("- Favorite Integer: 7");
  expect(formResult).toContain("- Favorite Number: 3.14");
  expect(formResult).toMatch(/"untitledSingleSelectEnum": "Joey"/);
  expect(formResult).toMatch(/"titledSingleSelectEnum": "hero-3"/);
  expect(formResult).toMatch(/"legacyTitledEnum": "pet-2"/);
  expect(formResult).toMatch(/"titledMultipleSelectEnum": \[\s*"fish-1"\s*\]/);

  tmux.type("now sample");
  const asked = await tmux.waitFor(/let the model answer\?/);
  expect(asked).toContain("everything asks the model for a completion (sampling, up to 25 tokens)");
  expect(asked).toContain("system: You are a helpful test server.");
  expect(asked).toContain("user: Resource trigger-sampling-request context: name a colour");
  // Nothing reached the model before the user approved.
  expect(fake.requests).toHaveLength(3);
  tmux.type("y");
  await tmux.waitFor(/◆ everything sampling: accepted \(11 in \/ 2 out\)/);
  await tmux.waitFor(/sampling said: teal/);
  const sampling = fake.requests[3]!.body as { max_tokens?: number; max_completion_tokens?: number };
  expect(sampling.max_tokens ?? sampling.max_completion_tokens).toBe(25);

  // A link: shown with its host, opened only on yes (printed here: the terminal has no display).
  tmux.type("open the link");
  const link = await tmux.waitFor(/open it\? \[y\]es/);
  expect(link).toContain("◆ everything asks you to open a link");
  expect(link).toContain("Approve the deployment in your browser.");
  expect(link).toContain("https://consent.example/approve?id=7");
  expect(link).toContain("(it goes to consent.example)");
  tmux.type("y");
  await tmux.waitFor(/open it in a browser: https:\/\/consent\.example\/approve\?id=7/);
  await tmux.waitFor(/link said: ✅ User completed the URL elicitation flow\./);

  // /add-dir: one more root, and the server hears that its roots changed.
  fs.mkdirSync(path.join(t.sandbox.root, "extra"));
  tmux.type("/add-dir ../extra");
  await tmux.waitFor(/Added \S*extra \(2 roots; told 1 server\)\./);
  tmux.type("list the roots");
  await tmux.waitFor(/roots said: Current MCP Roots \(2 total\):/);

  // Sampling tokens are in the session's total: 8 agent turns at 15 tokens each, plus 13.
  tmux.type("/exit");
  await tmux.waitFor(/bye · 8 turns · 133 tokens/);
});

/** The last non-empty line on screen. */
const lastLine = (screen: string) =>
  screen
    .split("\n")
    .filter((l) => l.trim().length > 0)
    .at(-1)
    ?.trim();

test("a question a server asks while no turn runs takes the prompt line, then the prompt comes back", async () => {
  const fake = await t.model([
    callTool("asking__ask_soon", {}),
    say("it will ask"),
    callTool("asking__last_answer", {}),
    (request) => say(`you said: ${lastToolResults(request)[0]!.text}`),
  ]);
  const tmux = startSession(fake, "asking", askingServer);
  await tmux.waitFor(/asking ✓/);
  tmux.type("ask me soon");
  await tmux.waitFor(/it will ask/);
  await tmux.waitFor(/◆ asking asks for input/);
  await answer(tmux, "fill in the form?", "y");
  await answer(tmux, "colour", "2");
  await answer(tmux, "send to asking?", "a");
  const screen = await tmux.waitFor(/◆ asking input: accepted/);
  await waitUntilPrompt(tmux, screen);
  tmux.type("what did I pick");
  await tmux.waitFor(/you said: \{"action":"accept","content":\{"colour":"blue"\}\}/);
});

async function waitUntilPrompt(session: TmuxSession, first: string): Promise<void> {
  if (lastLine(first) === "›") return;
  await waitFor("the prompt back", () => {
    const screen = session.screen();
    if (lastLine(screen) !== "›") throw new Error(`no prompt yet:\n${screen}`);
    return true;
  });
}
