import type { ToolProgress } from "@indus/contract";
import type { McpServerEndpoint } from "@indus/endpoint";
import { startEverythingHttp } from "./helpers/everything-http";
import { everythingStdio, fixture } from "./helpers/servers";
import { startModernHttp } from "./helpers/modern-http";
import { trackEndpoints } from "./helpers/tracked";

const make = trackEndpoints();

/**
 * Progress reports and the result as the caller sees them, in arrival order.
 * Anything the SDK would still deliver late lands after "result": a later
 * round trip on the same endpoint (tools/list) is the barrier it must beat.
 */
async function seenDuring(
  endpoint: McpServerEndpoint,
  call: (onProgress: (p: ToolProgress) => void) => Promise<unknown>,
): Promise<string[]> {
  const seen: string[] = [];
  await call((progress) => seen.push(`progress ${progress.progress}/${progress.total ?? "?"}`));
  seen.push("result");
  await endpoint.refreshTools();
  return seen;
}

const expected = [...Array.from({ length: 20 }, (_, i) => `progress ${i + 1}/20`), "result"];

describe.each([
  ["in one read", []],
  ["in separate writes", ["split=1"]],
])("20 progress notifications right before the result (%s)", (_label, args) => {
  it("all arrive, in order, before the result", async () => {
    const endpoint = make(fixture("burst", "progress-burst.mjs", args, { protocol: "legacy" }));
    await endpoint.open();
    for (let round = 0; round < 5; round += 1) {
      const seen = await seenDuring(endpoint, (onProgress) => endpoint.invoke("burst", { count: 20 }, { onProgress }));
      expect(seen).toEqual(expected);
    }
  });
});

describe("20 progress notifications from a v2 SDK server, back to back before its result", () => {
  it("all arrive in order over stdio in the 2026-07-28 era", async () => {
    const endpoint = make(fixture("burst-modern", "modern-server.mjs", [], { protocol: "2026-07-28" }));
    await endpoint.open();
    expect(endpoint.era).toBe("2026-07-28");
    for (let round = 0; round < 5; round += 1) {
      const seen = await seenDuring(endpoint, (onProgress) => endpoint.invoke("burst", { count: 20 }, { onProgress }));
      expect(seen).toEqual(expected);
    }
  });

  it.each([
    ["2026-07-28", []],
    ["legacy", ["legacy=serve"]],
  ] as const)("all arrive in order over Streamable HTTP (%s era)", async (era, args) => {
    const server = await startModernHttp(args);
    try {
      const endpoint = make({
        transport: "streamable-http",
        id: `burst-http-${era === "legacy" ? "l" : "m"}`,
        url: server.url,
        headers: {},
        protocol: era,
      });
      await endpoint.open();
      for (let round = 0; round < 5; round += 1) {
        const seen = await seenDuring(endpoint, (onProgress) =>
          endpoint.invoke("burst", { count: 20 }, { onProgress }),
        );
        expect(seen).toEqual(expected);
      }
      await endpoint.close();
    } finally {
      await server.close();
    }
  });
});

describe("server-everything's trigger-long-running-operation (its last report right before the result)", () => {
  const run = (endpoint: McpServerEndpoint) =>
    seenDuring(endpoint, (onProgress) =>
      endpoint.invoke("trigger-long-running-operation", { duration: 0.1, steps: 20 }, { onProgress }),
    );

  it("delivers every report, in order, before the result over stdio", async () => {
    const endpoint = make(everythingStdio("everything-progress", { protocol: "legacy" }));
    await endpoint.open();
    for (let round = 0; round < 3; round += 1) expect(await run(endpoint)).toEqual(expected);
  });

  it("and over Streamable HTTP with a 2025 session", async () => {
    const server = await startEverythingHttp("streamableHttp");
    try {
      const endpoint = make({
        transport: "streamable-http",
        id: "everything-http-progress",
        url: server.url,
        headers: {},
      });
      await endpoint.open();
      for (let round = 0; round < 3; round += 1) expect(await run(endpoint)).toEqual(expected);
      await endpoint.close();
    } finally {
      await server.stop();
    }
  });
});
