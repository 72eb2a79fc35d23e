/**
 * Turning a mounted server off and on again for a session (`/mcp disable`)
 * changes what the deck's tool box lists and runs at once, although the box
 * reuses its tool index between calls (it rebuilds it when a source's
 * revision moves, not per call).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { tiny } from "@indus/testkit";
import { bootDeck } from "../src/boot/boot";

const names = (box: { descriptors(): readonly { name: string }[] }) => box.descriptors().map((d) => d.name);

it("lists and runs a server's tools only while it is enabled", async () => {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), "indus-boot-switch-"));
  const config = path.join(cwd, "mcp.json");
  fs.writeFileSync(
    config,
    JSON.stringify({ mcpServers: { tiny: { command: tiny("tiny").command, args: tiny("tiny").args } } }),
  );
  const deck = await bootDeck({
    cwd,
    profile: "authoring",
    noTools: false,
    builtins: false,
    mcp: [config],
    env: { ...process.env, HOME: cwd, XDG_STATE_HOME: path.join(cwd, "state") },
  });
  try {
    const echo = names(deck.box).find((name) => name.endsWith("echo"));
    expect(echo).toBeDefined();
    const call = (id: string) => deck.box.runner.run({ id, name: echo!, input: { message: "hi" } });
    expect((await call("1")).isError).toBe(false);

    deck.mcp.setEnabled("tiny", false);
    expect(names(deck.box)).not.toContain(echo);
    const refused = await call("2");
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toMatch(/unknown tool/);

    deck.mcp.setEnabled("tiny", true);
    expect(names(deck.box)).toContain(echo);
    expect((await call("3")).isError).toBe(false);
  } finally {
    await deck.close();
    fs.rmSync(cwd, { recursive: true, force: true });
  }
});
