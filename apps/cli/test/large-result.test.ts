/**
 * A large tool result arrives intact: printed whole by `indusr call`, and
 * relayed whole by `indusr mcp serve` to a stdio client. The text is written
 * in slices (no second whole copy in memory, see bench/large-result.mjs), so
 * the text here has a surrogate pair across every slice boundary: a slice cut
 * between its halves would print two U+FFFD instead.
 */
import path from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { FIXTURES } from "@indus/testkit";
import { makeSandbox, runCli, type Sandbox } from "./support/run-cli";
import { writeConfig } from "./support/servers";
import { stdioGatewayTransport } from "./support/relay-client";

jest.setTimeout(60_000);

const SCRIPTED = path.join(FIXTURES, "scripted-server.mjs");
/** 😀 then x: at every 2^20th UTF-16 unit (a slice end) the pair's first half ends the slice. */
const UNIT = "\u{1F600}x";

let sandbox: Sandbox;
let config: string;
beforeEach(() => {
  sandbox = makeSandbox();
  config = writeConfig(sandbox.cwd, { s: { command: process.execPath, args: [SCRIPTED] } });
});
afterEach(() => sandbox.cleanup());

const expected = (units: number) => UNIT.repeat(Math.ceil(units / UNIT.length)).slice(0, units);

it("indusr call prints a 10 MB result intact", async () => {
  const units = 6_000_000; // 10 MB of UTF-8
  const args = JSON.stringify({ bytes: units, unit: UNIT });
  const result = await runCli(["call", "s__big", args, "--mcp", config], { sandbox });
  expect(result.code).toBe(0);
  expect(Buffer.byteLength(result.stdout)).toBe(10_000_000 + 1);
  expect(result.stdout === `${expected(units)}\n`).toBe(true);
});

it("a gateway call relays a 5 MB result intact", async () => {
  // The scripted server's hostile entries fail a listing, so the call names the tool as-is.
  // 5 MB is past the gateway's streaming threshold (1 MiB); the test's own SDK client re-joins its read
  // buffer on every chunk (quadratic), so 10 MB here costs most of a loaded runner's minute.
  const client = new Client({ name: "large-result", version: "1.0.0" });
  await client.connect(stdioGatewayTransport(sandbox, config, ["--names", "as-is"]));
  try {
    const units = 3_000_000;
    const result = await client.callTool({
      name: "big",
      arguments: { bytes: units, unit: UNIT },
    });
    const [block] = result.content as { type: string; text: string }[];
    expect(block!.text.length).toBe(units);
    expect(block!.text === expected(units)).toBe(true);
  } finally {
    await client.close();
  }
});
