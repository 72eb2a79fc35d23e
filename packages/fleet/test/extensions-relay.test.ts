/**
 * Skills (SEP-2640) and MCP Apps (SEP-1865) across mounted servers, from the
 * real example servers (examples/extensions/): two skills servers offering
 * the same skill names, and an apps server whose tools point at a `ui://`
 * view. In both naming modes every reference resolves through the catalog,
 * and what it resolves to is what the server sent.
 */
import type { JsonObject, ServerConfig, SkillEntry } from "@indus/contract";
import { mountProtocolBridge, type MountedProtocolBridge, type NamingMode } from "@indus/fleet";
import { exampleLog, exampleLogFile, exampleStdio } from "@indus/testkit";

jest.setTimeout(90_000);

const server = (id: string, example: "skills-server" | "apps-server", args: string[] = []): ServerConfig => ({
  transport: "stdio",
  id,
  env: {},
  ...exampleStdio(example, args),
});

let mounted: MountedProtocolBridge | undefined;
afterEach(async () => {
  await mounted?.fleet.tearDown();
  mounted = undefined;
});

async function mount(names: NamingMode, ...servers: ServerConfig[]): Promise<MountedProtocolBridge> {
  mounted = await mountProtocolBridge({ servers }, { names });
  return mounted;
}

const textOf = (result: JsonObject) => ((result["contents"] as JsonObject[])[0]!["text"] as string) ?? "";

describe("skills of two servers with the same names", () => {
  it("prefixed: each server's skills under its own prefix, every file readable and byte-identical", async () => {
    const { box, fleet } = await mount("prefixed", server("a", "skills-server"), server("b", "skills-server"));
    const skills = await box.catalog.listSkills();
    expect(skills.map((skill) => skill.uri).sort()).toEqual([
      "skill://a/code-review/SKILL.md",
      "skill://a/release-notes/SKILL.md",
      "skill://b/code-review/SKILL.md",
      "skill://b/release-notes/SKILL.md",
    ]);
    const notes = skills.find((skill) => skill.uri === "skill://b/release-notes/SKILL.md")!;
    // The name and the digests stay the server's own: only the URIs carry the server.
    expect(notes.frontmatter.name).toBe("release-notes");
    expect((notes["resources"] as JsonObject[]).map((file) => file["uri"])).toEqual([
      "skill://b/release-notes/SKILL.md",
      "skill://b/release-notes/template.md",
    ]);
    const direct = await fleet.endpoint("b")!.readResource("skill://release-notes/template.md");
    const relayed = await box.catalog.readResource("skill://b/release-notes/template.md");
    expect(textOf(relayed)).toBe(textOf(direct));
    expect((relayed["contents"] as JsonObject[])[0]!["uri"]).toBe("skill://b/release-notes/template.md");
    await expect(box.catalog.getSkill("skill://a/code-review/SKILL.md")).resolves.toMatchObject({
      uri: "skill://a/code-review/SKILL.md",
      frontmatter: { name: "code-review" },
    });
  });

  it("as-is: the first server keeps a skill URI both list, and the clash is reported", async () => {
    const { box } = await mount("as-is", server("a", "skills-server"), server("b", "skills-server"));
    const skills = await box.catalog.listSkills();
    expect(skills.map((skill: SkillEntry) => skill.uri)).toEqual([
      "skill://release-notes/SKILL.md",
      "skill://code-review/SKILL.md",
    ]);
    const clashes = box.catalog.nameClashes().map((fault) => fault.message);
    expect(clashes).toContain('servers "a" and "b" both offer skill "skill://code-review/SKILL.md"');
  });
});

describe.each(["prefixed", "as-is"] as const)("an app server (%s names)", (names) => {
  it("every tool's view reference resolves, byte-identical to direct, csp and permissions kept", async () => {
    const { box, fleet } = await mount(names, server("dice", "apps-server"), server("notes", "skills-server"));
    const direct = await fleet.endpoint("dice")!.readResource("ui://dice/board.html");
    const tools = box.descriptors().filter((tool) => tool.wire?.["_meta"] !== undefined);
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      names === "prefixed" ? ["dice__roll_dice", "dice__show_dice"] : ["roll_dice", "show_dice"],
    );
    for (const tool of tools) {
      const meta = tool.wire!["_meta"] as JsonObject;
      const uri = (meta["ui"] as JsonObject)["resourceUri"] as string;
      expect(meta["ui/resourceUri"]).toBe(uri);
      expect(uri).toBe(names === "prefixed" ? "ui://dice/dice/board.html" : "ui://dice/board.html");
      const relayed = await box.catalog.readResource(uri);
      const [content] = relayed["contents"] as JsonObject[];
      const [original] = direct["contents"] as JsonObject[];
      expect(content!["text"]).toBe(original!["text"]);
      expect(content!["_meta"]).toEqual(original!["_meta"]);
      expect(content!["mimeType"]).toBe("text/html;profile=mcp-app");
      expect(content!["uri"]).toBe(uri);
    }
    const listed = await box.catalog.listResources();
    expect(listed.map((resource) => resource["uri"])).toContain(
      names === "prefixed" ? "ui://dice/dice/board.html" : "ui://dice/board.html",
    );
  });
});

it("prefixed: two app servers with the same view URI each get their own view, read from that server", async () => {
  const logs = { one: exampleLogFile(), two: exampleLogFile() };
  const { box } = await mount(
    "prefixed",
    server("one", "apps-server", ["--log", logs.one]),
    server("two", "apps-server", ["--log", logs.two]),
  );
  const viewOf = (name: string) => {
    const meta = box.descriptors().find((tool) => tool.name === name)!.wire!["_meta"] as JsonObject;
    return (meta["ui"] as JsonObject)["resourceUri"] as string;
  };
  expect(viewOf("one__show_dice")).toBe("ui://one/dice/board.html");
  expect(viewOf("two__show_dice")).toBe("ui://two/dice/board.html");
  await box.catalog.readResource(viewOf("two__show_dice"));
  expect(exampleLog(logs.two)).toContain("apps-example: resources/read ui://dice/board.html");
  expect(exampleLog(logs.one).filter((line) => line.includes("resources/read"))).toEqual([]);
});
