import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { findSession, listSessions, restoreConversation } from "../../src/agent/session/resume";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "indusr-resume-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function transcript(id: string, entries: unknown[], mtime: Date): string {
  const file = path.join(dir, `${id}.jsonl`);
  fs.writeFileSync(file, entries.map((e) => JSON.stringify(e)).join("\n") + "\n{torn");
  fs.utimesSync(file, mtime, mtime);
  return file;
}

const user = (content: string) => ({ type: "message", message: { role: "user", content } });
const assistant = (text: string, calls: { id: string; name: string }[] = []) => ({
  type: "message",
  message: {
    role: "assistant",
    content: [
      { type: "text", text },
      ...calls.map((c) => ({ type: "tool-call", toolCallId: c.id, toolName: c.name, input: {} })),
    ],
  },
});

it("lists a folder's sessions newest first, titled by their first prompt, skipping sub-agents' transcripts", () => {
  transcript("20260101-100000-aaaaaa", [{ type: "session", cwd: "/p" }, user("first  task\nmore")], new Date(1000_000));
  transcript("20260102-100000-bbbbbb", [{ type: "session", cwd: "/p" }, user("second")], new Date(2000_000));
  transcript("20260103-100000-cccccc", [{ type: "session", cwd: "/q" }, user("elsewhere")], new Date(3000_000));
  transcript("20260102-100000-bbbbbb-task1", [{ type: "session", cwd: "/p" }], new Date(4000_000));
  expect(listSessions(dir, "/p").map((s) => [s.id, s.title])).toEqual([
    ["20260102-100000-bbbbbb", "second"],
    ["20260101-100000-aaaaaa", "first task more"],
  ]);
  expect(findSession(dir, "20260103")?.cwd).toBe("/q");
  expect(findSession(dir, "2026")).toBeUndefined();
});

it("restores the messages since the last clear, a compaction's conversation, plan mode, and closes unanswered calls", () => {
  const file = transcript(
    "20260101-100000-aaaaaa",
    [
      { type: "session", cwd: "/p" },
      user("forgotten"),
      { type: "clear" },
      user("old"),
      assistant("old answer"),
      { type: "compaction", conversation: [{ role: "user", content: "SUMMARY" }] },
      user("now"),
      { type: "plan_mode", active: true },
      assistant("calling", [{ id: "c1", name: "read" }]),
      { type: "message", message: { role: "nonsense" } },
    ],
    new Date(),
  );
  const restored = restoreConversation({ id: "x", file });
  expect(restored.planMode).toBe(true);
  expect(restored.unanswered).toBe(1);
  expect(restored.messages.map((m) => m.role)).toEqual(["user", "user", "assistant", "tool"]);
  expect(restored.messages[0]!.content).toBe("SUMMARY");
  expect(JSON.stringify(restored.messages[3])).toContain("the session ended before this call finished");
});
