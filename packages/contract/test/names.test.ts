import {
  MAX_TOOL_NAME_LENGTH,
  QUALIFIER,
  SERVER_ID_PATTERN,
  TOOL_NAME_PATTERN,
  isServerId,
  qualifyToolName,
  withNameSuffix,
} from "@indus/contract";

describe("qualified names", () => {
  it("joins server and tool with a double underscore", () => {
    expect(QUALIFIER).toBe("__");
    expect(qualifyToolName({ server: "github", name: "create_issue" })).toBe("github__create_issue");
  });

  it("accepts server ids that start with a letter", () => {
    for (const id of ["a", "fs", "my-server", "Server_2"]) expect(isServerId(id)).toBe(true);
    for (const id of ["", "2fs", "_x", "-x", "a b", "a.b", "a/b", "ü"]) expect(isServerId(id)).toBe(false);
    expect(isServerId(undefined)).toBe(false);
    expect(SERVER_ID_PATTERN.source).toBe("^[a-zA-Z][a-zA-Z0-9_-]*$");
  });

  it("pins the provider-safe tool name pattern", () => {
    expect(TOOL_NAME_PATTERN.test("a".repeat(64))).toBe(true);
    expect(TOOL_NAME_PATTERN.test("a".repeat(65))).toBe(false);
    expect(TOOL_NAME_PATTERN.test("read.file")).toBe(false);
  });

  it("fits a suffix within the length limit, cutting the base", () => {
    expect(MAX_TOOL_NAME_LENGTH).toBe(64);
    expect(withNameSuffix("read_file", "1a2b3c4d")).toBe("read_file_1a2b3c4d");
    const long = withNameSuffix("a".repeat(80), "1a2b3c4d");
    expect(long).toBe(`${"a".repeat(55)}_1a2b3c4d`);
    expect(TOOL_NAME_PATTERN.test(long)).toBe(true);
  });
});
