import { QUALIFIER, SERVER_ID_PATTERN, TOOL_NAME_PATTERN, isServerId, qualifyToolName } from "@indus/contract";

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
});
