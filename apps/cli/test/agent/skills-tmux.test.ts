/**
 * Server skills (SEP-2640) in the interactive session on a real terminal
 * (tmux): two servers offering the same skill names reach the agent as
 * `/<server>:<skill>`, Tab completes them, a used skill is loaded into the
 * conversation (verified, tagged with its server), and a skill whose
 * SKILL.md does not match its digest is refused before the model sees it.
 */
import { exampleStdio } from "@indus/testkit";
import { say } from "./fake-model/fake-model-server";
import { useAgentTest } from "./support/agent-test";
import { waitForPrompt } from "./support/tmux";

jest.setTimeout(180_000);

const t = useAgentTest();

test("/<server>:<skill> completes, loads a verified skill from the right server, and refuses a tampered one", async () => {
  const seen: string[] = [];
  const fake = await t.model([
    (request) => {
      seen.push(request.messages.at(-1)!.text);
      return say("loaded the skill");
    },
    (request) => {
      seen.push(request.messages.at(-1)!.text);
      return say("should not be reached");
    },
  ]);
  const mcp = t.sandbox.mcpConfig({
    alpha: exampleStdio("skills-server"),
    beta: exampleStdio("skills-server", ["--tamper", "code-review"]),
  });
  const tmux = t.terminal(["--mcp", mcp], fake);
  await tmux.waitFor(/alpha ✓, beta ✓/);
  await waitForPrompt(tmux);

  // Tab completes a server's skill; the same name on another server is its own command.
  tmux.type("/beta:rel", false);
  tmux.keys("Tab");
  await tmux.waitFor(/› \/beta:release-notes\s*$/m);
  tmux.type(" for v2.1", false);
  tmux.keys("Enter");
  await tmux.waitFor(/▸ skill beta:release-notes \(skill:\/\/release-notes\/SKILL\.md, verified\)/);
  await tmux.waitFor(/loaded the skill/);
  await waitForPrompt(tmux);
  expect(seen[0]).toContain('<skill server="beta" uri="skill://release-notes/SKILL.md">');
  expect(seen[0]).toContain("# Release notes");
  expect(seen[0]).toContain('from MCP server "beta"');
  expect(seen[0]).toMatch(/for v2\.1$/);

  // beta's code-review does not match its digest: refused, and nothing goes to the model.
  tmux.type("/beta:code-review");
  await tmux.waitFor(/✗ \/beta:code-review: .*skill code-review refused, digest check failed/);
  await waitForPrompt(tmux);
  // alpha's is intact and loads.
  tmux.type("/alpha:code-review");
  await tmux.waitFor(/▸ skill alpha:code-review/);
  await tmux.waitFor(/should not be reached/);
  expect(seen).toHaveLength(2);
  expect(seen[1]).toContain('<skill server="alpha" uri="skill://code-review/SKILL.md">');
});
