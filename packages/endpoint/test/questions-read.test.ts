/**
 * The relay remembers, for each question a server asks, the calls in flight as
 * it was read, until the question is routed. A server asking for what its
 * client never declared is answered by the SDK without a handler, so its
 * questions are never routed: what is remembered stays bounded.
 */
import { QUESTIONS_READ_BOUND, QuestionsRead } from "../src/relay/call-answers";
import { RelayRouter } from "../src/relay/relay-routing";

describe("questions read and not yet routed", () => {
  it("keep at most the bound, the newest first, however many a server asks", () => {
    const read = new QuestionsRead<string>();
    for (let id = 0; id < 10_000; id += 1) read.note(id, `calls ${id}`);
    expect(read.size).toBe(QUESTIONS_READ_BOUND);
    expect(read.take(0)).toBeUndefined();
    expect(read.take(9_999)).toBe("calls 9999");
    expect(read.take(9_999)).toBeUndefined();
    expect(read.size).toBe(QUESTIONS_READ_BOUND - 1);
  });

  it("a question read anew under the same id counts once", () => {
    const read = new QuestionsRead<string>();
    read.note("q", "first");
    read.note("q", "second");
    expect(read.size).toBe(1);
    expect(read.take("q")).toBe("second");
  });

  it("a router asked 10,000 questions it never routes still routes the next one", () => {
    const ambient = { listRoots: async () => [] };
    const router = new RelayRouter("s", ambient);
    for (let id = 0; id < 10_000; id += 1) router.requestRead(id, "elicitation/create");
    router.requestRead("last", "roots/list");
    expect(router.choose({ kind: "listRoots" }, "last")).toBe(ambient);
    expect(router.choose({ kind: "listRoots" }, 0)).toBe(ambient);
  });
});
