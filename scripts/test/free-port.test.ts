import { freePort, portShare } from "../../packages/testkit/src/ports";

it("never hands out the same port twice in one process", async () => {
  const ports: number[] = [];
  for (let i = 0; i < 1_500; i++) ports.push(await freePort());
  expect(new Set(ports).size).toBe(ports.length);
});

it("gives Jest workers running at once parts of the range that do not overlap", () => {
  const shares = ["1", "2", "3", "4"].map((id) => portShare(id));
  const ends = shares.map((share) => [share.from, share.from + share.count] as const);
  for (const [i, [from, to]] of ends.entries()) {
    expect(to - from).toBeGreaterThanOrEqual(1_000);
    for (const [otherFrom, otherTo] of ends.slice(i + 1)) expect(to <= otherFrom || otherTo <= from).toBe(true);
  }
  expect(portShare("").count).toBeGreaterThan(shares[0]!.count);
});

it("keeps a port drawn in this worker inside its part", async () => {
  const { from, count } = portShare();
  const port = await freePort();
  expect(port).toBeGreaterThanOrEqual(from);
  expect(port).toBeLessThan(from + count);
});
