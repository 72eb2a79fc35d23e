import { FLAG_TABLE, collectList, optionFor } from "../src/flags";

describe("the flag table", () => {
  it("has unique names and at most one single-letter alias per row", () => {
    const names = FLAG_TABLE.map((row) => row.name);
    expect(new Set(names).size).toBe(names.length);
    const shorts = FLAG_TABLE.flatMap((row) => row.aliases);
    expect(new Set(shorts).size).toBe(shorts.length);
    for (const row of FLAG_TABLE) {
      expect(row.aliases.length).toBeLessThanOrEqual(1);
      for (const alias of row.aliases) expect(alias).toMatch(/^[a-zA-Z]$/);
      expect(row.description.length).toBeGreaterThan(10);
      if (row.kind === "choice") expect(row.choices?.length).toBeGreaterThan(0);
      expect(() => optionFor(row)).not.toThrow();
    }
  });

  it("treats --mcp and --tools as list flags", () => {
    expect(FLAG_TABLE.filter((row) => row.kind === "list").map((row) => row.name)).toEqual([
      "mcp",
      "tools",
      "allow",
      "add-dir",
      "allow-sampling",
    ]);
  });

  it("makes repeated and comma-joined forms equivalent", () => {
    const repeated = ["a", "b", "c"].reduce<string[] | undefined>((acc, item) => collectList(item, acc), undefined);
    const joined = collectList("a,b,c", undefined);
    const mixed = collectList("b, c", collectList("a", undefined));
    expect(repeated).toEqual(["a", "b", "c"]);
    expect(joined).toEqual(repeated);
    expect(mixed).toEqual(repeated);
    expect(collectList(",,", undefined)).toEqual([]);
  });
});
