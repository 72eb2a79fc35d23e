import { QUALIFIER } from "@indus/contract";
import { qualifyBridgeName, serverOfQualified, unqualifiedTool } from "@indus/ledger";

describe("qualified names", () => {
  it("joins server and tool with the contract's qualifier", () => {
    expect(QUALIFIER).toBe("__");
    expect(qualifyBridgeName("github", "create_issue")).toBe("github__create_issue");
  });

  it("splits on the first qualifier, so tool names may contain it", () => {
    expect(serverOfQualified("github__create__issue")).toBe("github");
    expect(unqualifiedTool("github__create__issue")).toBe("create__issue");
    expect(serverOfQualified(qualifyBridgeName("a-b", "x_y"))).toBe("a-b");
    expect(unqualifiedTool(qualifyBridgeName("a-b", "x_y"))).toBe("x_y");
  });

  it("has no server when the qualifier is absent or leads", () => {
    expect(serverOfQualified("read_file")).toBe("");
    expect(serverOfQualified("__hidden")).toBe("");
    expect(serverOfQualified("")).toBe("");
    expect(unqualifiedTool("read_file")).toBe("read_file");
    expect(unqualifiedTool("__hidden")).toBe("hidden");
  });

  it("keeps a single underscore inside the server part", () => {
    expect(serverOfQualified("my_server__tool")).toBe("my_server");
    expect(unqualifiedTool("my_server__tool")).toBe("tool");
  });
});
