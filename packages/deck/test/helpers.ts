import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ToolBox, ToolOutcome } from "@indus/contract";
import type { DeckFramework } from "@indus/deck";
import { type DeckOptions, deckContext, provisionDeck, resultText } from "@indus/deck";
import type { Profile, ToolDeck } from "@indus/deck";

const made: string[] = [];

/** A fresh temp dir, removed after the suite. */
export function tempDir(prefix = "deck-"): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

export function write(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
}

export function deckAt(
  cwd: string,
  init: { profile?: Profile; framework?: DeckFramework; options?: DeckOptions } = {},
): {
  deck: ToolDeck;
  box: ToolBox;
  call: (name: string, input?: unknown, signal?: AbortSignal) => Promise<ToolOutcome & { text: string }>;
} {
  const deck = provisionDeck(init.profile ?? "all", deckContext(cwd, init));
  const box = deck.intoToolBox();
  let n = 0;
  const call = async (name: string, input: unknown = {}, signal?: AbortSignal) => {
    const outcome = await box.runner.run({ id: `c${++n}`, name, input }, signal ? { signal } : {});
    return { ...outcome, text: resultText(outcome) };
  };
  return { deck, box, call };
}
