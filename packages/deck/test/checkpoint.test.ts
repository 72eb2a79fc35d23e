import fs from "node:fs";
import path from "node:path";
import type { CheckpointStore } from "@indus/deck";
import { CheckpointingCard, deckContext, maybeWrapCheckpoint, provisionDeck } from "@indus/deck";
import { buildBuiltin } from "@indus/deck/catalog";
import { deckAt, tempDir, write } from "./helpers";

function recordingStore(node = "n1") {
  const records: { node: string; path: string; previous: string | null }[] = [];
  const store: CheckpointStore & { node: string } = {
    node,
    activeNode() {
      return this.node;
    },
    record(n, p, previous) {
      records.push({ node: n, path: p, previous: previous === null ? null : Buffer.from(previous).toString("utf8") });
    },
  };
  return { store, records };
}

describe("the checkpoint wrapper", () => {
  it("passes a capability through identity-equal when no store is injected", () => {
    const write = buildBuiltin("write", deckContext("/tmp"));
    expect(maybeWrapCheckpoint(write, undefined)).toBe(write);
    const { store } = recordingStore();
    expect(maybeWrapCheckpoint(buildBuiltin("bash", deckContext("/tmp")), store).name).toBe("bash");
    expect(maybeWrapCheckpoint(buildBuiltin("bash", deckContext("/tmp")), store)).not.toBeInstanceOf(CheckpointingCard);
    const deck = provisionDeck("survey", deckContext("/tmp"));
    expect(deck.tools().some((t) => t instanceof CheckpointingCard)).toBe(false);
  });

  it("wraps only write and edit, invisibly to the model", () => {
    const { store } = recordingStore();
    const deck = provisionDeck("all", deckContext("/tmp", { framework: { checkpoint: store } }));
    const wrapped = deck
      .tools()
      .filter((t) => t instanceof CheckpointingCard)
      .map((t) => t.name);
    expect(wrapped).toEqual(["write", "edit"]);
    const plain = buildBuiltin("edit", deckContext("/tmp"));
    const edit = deck.tools().find((t) => t.name === "edit");
    expect({ ...plainFields(edit) }).toEqual(plainFields(plain));
  });

  it("records prior content first-seen-wins per (node, path), a missing file as absent", async () => {
    const cwd = tempDir();
    write(cwd, { "a.txt": "one\n" });
    const { store, records } = recordingStore();
    const { call } = deckAt(cwd, { framework: { checkpoint: store } });
    await call("read", { path: "a.txt" });
    expect((await call("edit", { path: "a.txt", old_string: "one", new_string: "two" })).isError).toBe(false);
    expect((await call("edit", { path: "a.txt", old_string: "two", new_string: "three" })).isError).toBe(false);
    expect((await call("write", { path: "new/b.txt", content: "fresh" })).isError).toBe(false);
    expect(records).toEqual([
      { node: "n1", path: path.join(cwd, "a.txt"), previous: "one\n" },
      { node: "n1", path: path.join(cwd, "new/b.txt"), previous: null },
    ]);
    // A new transcript node records the then-current content again.
    store.node = "n2";
    await call("write", { path: "a.txt", content: "four" });
    expect(records[2]).toEqual({ node: "n2", path: path.join(cwd, "a.txt"), previous: "three\n" });
    expect(fs.readFileSync(path.join(cwd, "a.txt"), "utf8")).toBe("four");
  });

  it("is best effort: a failing store never blocks the write", async () => {
    const cwd = tempDir();
    const store: CheckpointStore = {
      activeNode: () => "n",
      record: async () => {
        throw new Error("disk full");
      },
    };
    const { call } = deckAt(cwd, { framework: { checkpoint: store } });
    expect((await call("write", { path: "x.txt", content: "ok" })).isError).toBe(false);
    expect(fs.readFileSync(path.join(cwd, "x.txt"), "utf8")).toBe("ok");
  });
});

function plainFields(
  card: { name: string; label: string; description: string; parameters: unknown; readOnly: boolean } | undefined,
) {
  return (
    card && {
      name: card.name,
      label: card.label,
      description: card.description,
      parameters: card.parameters,
      readOnly: card.readOnly,
    }
  );
}
