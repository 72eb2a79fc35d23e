/**
 * The 2026-07-28 era's `ttlMs` on `tools/list`: the endpoint's cached tool
 * list is served until it expires, then listed again on the next use. The
 * fixture counts the `tools/list` requests it answers.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ProtocolMode } from "@indus/contract";
import { ALL_BUT_DATE } from "@indus/testkit";
import { fixture } from "./helpers/servers";
import { trackEndpoints } from "./helpers/tracked";

const make = trackEndpoints();
const dir = mkdtempSync(path.join(os.tmpdir(), "list-ttl-"));
const lists = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").length : 0);

// The list's age is the test's clock (Date alone is faked; the fixture and timers are real), so a worker paused
// between two listings does not age the list.
beforeEach(() => jest.useFakeTimers({ doNotFake: [...ALL_BUT_DATE], now: Date.now() }));
afterEach(() => jest.useRealTimers());

async function open(name: string, args: string[], protocol: ProtocolMode) {
  const log = path.join(dir, name);
  const endpoint = make(fixture(name, "modern-server.mjs", [`listlog=${log}`, ...args], { protocol }));
  await endpoint.open();
  return { endpoint, listed: () => lists(log) };
}

it("serves the cached list until ttlMs has passed, then lists again on the next use", async () => {
  const { endpoint, listed } = await open("ttl", ["ttl=600"], "2026-07-28");
  const first = await endpoint.listTools();
  const before = listed();
  expect(await endpoint.listTools()).toBe(first);
  expect(listed()).toBe(before);
  jest.advanceTimersByTime(599);
  expect(await endpoint.listTools()).toBe(first);
  expect(listed()).toBe(before);
  jest.advanceTimersByTime(1);
  const again = await endpoint.listTools();
  expect(listed()).toBe(before + 1);
  expect(again.map((tool) => tool.ref.name)).toEqual(first.map((tool) => tool.ref.name));
  expect(await endpoint.listTools()).toBe(again);
  expect(listed()).toBe(before + 1);
});

it("ttlMs 0 (the v2 SDK's default stamp) means stale at once: each listing asks the server", async () => {
  const { endpoint, listed } = await open("ttl0", [], "2026-07-28");
  await endpoint.listTools();
  const before = listed();
  await endpoint.listTools();
  await endpoint.listTools();
  expect(listed()).toBe(before + 2);
});

it("a 2025-era list carries no ttlMs and stays cached until the server announces a change", async () => {
  const { endpoint, listed } = await open("legacy", ["legacy=serve", "ttl=1"], "legacy");
  expect(endpoint.era).toBe("legacy");
  const first = await endpoint.listTools();
  const before = listed();
  jest.advanceTimersByTime(86_400_000);
  expect(await endpoint.listTools()).toBe(first);
  expect(listed()).toBe(before);
});
