import { memoryEraVerdictStore, parseServerConfig } from "@indus/contract";

it("accepts protocol auto, 2026-07-28 and legacy on a server config, and nothing else", () => {
  for (const protocol of ["auto", "2026-07-28", "legacy"]) {
    expect(parseServerConfig({ transport: "stdio", id: "a", command: "x", protocol }).ok).toBe(true);
  }
  expect(parseServerConfig({ transport: "stdio", id: "a", command: "x" }).ok).toBe(true);
  expect(parseServerConfig({ transport: "streamable-http", id: "a", url: "http://h/", protocol: "2025" }).ok).toBe(
    false,
  );
});

it("keeps verdicts per identity, as copies", async () => {
  const store = memoryEraVerdictStore();
  const discover = { supportedVersions: ["2026-07-28"] };
  await store.save("a", { kind: "modern", discover, storedAt: 1 });
  discover.supportedVersions.push("x");
  expect(await store.load("a")).toEqual({
    kind: "modern",
    discover: { supportedVersions: ["2026-07-28"] },
    storedAt: 1,
  });
  expect(await store.load("b")).toBeUndefined();
  await store.forget("a");
  expect(await store.load("a")).toBeUndefined();
});
