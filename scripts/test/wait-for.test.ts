import { abandonPendingWaits, waitFor } from "../../packages/testkit/src/wait-for";

it("resolves with the check's first value that is not false, undefined or null", async () => {
  let polls = 0;
  const value = await waitFor("the third poll", () => (++polls === 3 ? { polls } : false), { every: 1 });
  expect(value).toEqual({ polls: 3 });
});

it("counts a throwing check as not yet", async () => {
  let polls = 0;
  await expect(
    waitFor("a check that stops throwing", () => {
      if (++polls < 3) throw new Error("not yet");
      return true;
    }),
  ).resolves.toBe(true);
});

it("ends early when the event can no longer happen, naming it and why", async () => {
  await expect(waitFor("server says ready", () => false, { failure: () => "server exited with 1" })).rejects.toThrow(
    "server says ready: never happened, server exited with 1",
  );
});

it("a wait still pending when its test ends is reported by what it waits for, with the last check", async () => {
  void waitFor("a line that never comes", () => {
    throw new Error("stderr is empty");
  });
  await new Promise((resolve) => setImmediate(resolve));
  expect(abandonPendingWaits()).toEqual(["a line that never comes (last check: stderr is empty)"]);
  expect(abandonPendingWaits()).toEqual([]);
});
