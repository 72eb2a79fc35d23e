/**
 * The deck's tool box answers calls and lists from an index it rebuilds only
 * when a live source's revision moved: a gateway looks a tool up on every
 * call, and re-reading every source per call cost time in proportion to the
 * number of tools mounted. (A source without revisions is re-read per use:
 * provision.test.ts.)
 */
import type { Capability, CapabilitySource } from "@indus/deck";
import { deckContext, defineCard, provisionDeck } from "@indus/deck";
import { tempDir } from "./helpers";

function echoCard(name: string): Capability {
  return defineCard({
    name,
    label: name,
    description: `answers as ${name}`,
    parameters: { type: "object" },
    readOnly: true,
    run: async () => ({ content: [{ type: "text", text: name }] }),
  });
}

/** A live source that keeps revisions and counts how often its capabilities are read. */
class CountingSource implements CapabilitySource {
  reads = 0;
  private version = 0;
  private listeners = new Set<() => void>();
  constructor(private caps: Capability[]) {}
  capabilities(): readonly Capability[] {
    this.reads += 1;
    return this.caps;
  }
  revision(): unknown {
    return this.version;
  }
  onChanged(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  replace(caps: Capability[]): void {
    this.caps = caps;
    this.version += 1;
    for (const listener of this.listeners) listener();
  }
}

const text = (outcome: { content: readonly { type: string; text?: string }[] }) => outcome.content[0]?.text;

it("answers many calls from one read of its live source", async () => {
  const source = new CountingSource([echoCard("one"), echoCard("two")]);
  const box = provisionDeck("all", deckContext(tempDir()))
    .retain(() => false)
    .graft(source)
    .intoToolBox();
  for (let n = 0; n < 50; n++) expect(text(await box.runner.run({ id: `${n}`, name: "one", input: {} }))).toBe("one");
  expect(box.descriptors().map((d) => d.name)).toEqual(["one", "two"]);
  expect(source.reads).toBe(1);
});

it("sees a change its source announces, in lists and calls, and in the change listeners themselves", async () => {
  const source = new CountingSource([echoCard("one")]);
  const box = provisionDeck("all", deckContext(tempDir()))
    .retain(() => false)
    .graft(source)
    .intoToolBox();
  const seenByListener: string[][] = [];
  box.onDescriptorsChanged?.(() => seenByListener.push(box.descriptors().map((d) => d.name)));
  const heardOnSource: string[][] = [];
  source.onChanged(() => heardOnSource.push(box.descriptors().map((d) => d.name)));
  expect(box.descriptors().map((d) => d.name)).toEqual(["one"]);

  source.replace([echoCard("one"), echoCard("three")]);
  expect(seenByListener).toEqual([["one", "three"]]);
  expect(box.descriptors().map((d) => d.name)).toEqual(["one", "three"]);
  expect(text(await box.runner.run({ id: "1", name: "three", input: {} }))).toBe("three");
  expect(heardOnSource).toEqual([["one", "three"]]);

  source.replace([echoCard("three")]);
  const gone = await box.runner.run({ id: "2", name: "one", input: {} });
  expect(gone.isError).toBe(true);
  expect(text(gone)).toMatch(/unknown tool "one"; available tools: three/);
});

it("adds the reason it is told to an unknown tool's error, and offers it as the box's whyUnknown", async () => {
  const box = provisionDeck("all", deckContext(tempDir()))
    .retain(() => false)
    .graft([echoCard("one")])
    .intoToolBox({
      whyUnknown: (name) => (name.startsWith("late__") ? 'server "late" is still connecting' : undefined),
    });
  const late = await box.runner.run({ id: "1", name: "late__x", input: {} });
  expect(text(late)).toBe('unknown tool "late__x"; server "late" is still connecting; available tools: one');
  expect(text(await box.runner.run({ id: "2", name: "other", input: {} }))).toBe(
    'unknown tool "other"; available tools: one',
  );
  expect(box.whyUnknown?.("late__x")).toBe('server "late" is still connecting');
});
