/**
 * The Skills extension (SEP-2640) against the example skills server
 * (examples/extensions/skills-server.mjs, on the official SDK): listing,
 * getting and reading skill files in both eras, and a skill whose SKILL.md
 * does not match its published digest refused with a fault naming the file.
 */
import { isProtocolFault, memoryEraVerdictStore, type ProtocolMode, type ServerConfig } from "@indus/contract";
import { createServerEndpoint, type McpServerEndpoint } from "@indus/endpoint";
import { exampleStdio, startExampleHttp, type ExampleHttp } from "@indus/testkit";

let open: McpServerEndpoint[] = [];

async function connect(config: ServerConfig): Promise<McpServerEndpoint> {
  const endpoint = createServerEndpoint(config, undefined, { eraVerdicts: memoryEraVerdictStore() });
  open.push(endpoint);
  await endpoint.open();
  return endpoint;
}

function stdio(protocol: ProtocolMode, args: readonly string[] = []): ServerConfig {
  return { transport: "stdio", id: "skills", env: {}, ...exampleStdio("skills-server", args), protocol };
}

afterEach(async () => {
  await Promise.all(open.map((endpoint) => endpoint.close()));
  open = [];
});

describe.each(["legacy", "2026-07-28"] as const)("skills over stdio (%s era)", (protocol) => {
  it("lists both skills and reads a verified SKILL.md and a supporting file", async () => {
    const endpoint = await connect(stdio(protocol));
    expect(endpoint.era).toBe(protocol);
    const skills = await endpoint.listSkills();
    expect(skills.map((skill) => skill.uri)).toEqual([
      "skill://release-notes/SKILL.md",
      "skill://code-review/SKILL.md",
    ]);
    const notes = skills[0]!;
    const manifest = await endpoint.readSkill(notes);
    expect(manifest).toMatchObject({ uri: "skill://release-notes/SKILL.md", verified: true });
    expect(manifest.body).toContain("# Release notes");
    const template = await endpoint.readSkill(notes, "template.md");
    expect(template).toMatchObject({
      uri: "skill://release-notes/template.md",
      verified: true,
      text: "## Highlights\n\n## Fixes\n\n## Thanks\n",
    });
    await expect(endpoint.getSkill("skill://code-review/SKILL.md")).resolves.toMatchObject({
      frontmatter: { name: "code-review" },
    });
  });

  it("refuses a SKILL.md whose digest does not match, naming the file and the check", async () => {
    const endpoint = await connect(stdio(protocol, ["--tamper", "code-review"]));
    const review = (await endpoint.listSkills()).find((skill) => skill.frontmatter.name === "code-review")!;
    const refused = await endpoint.readSkill(review).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isProtocolFault(refused)).toBe(true);
    expect(refused).toMatchObject({
      kind: "protocol",
      server: "skills",
      data: { reason: "digest", uri: "skill://code-review/SKILL.md" },
    });
    expect((refused as Error).message).toMatch(/skill code-review refused, digest check failed/);
    // The other skill still loads: one bad file harms nothing else.
    const notes = (await endpoint.listSkills()).find((skill) => skill.frontmatter.name === "release-notes")!;
    await expect(endpoint.readSkill(notes)).resolves.toMatchObject({ verified: true });
  });

  it("refuses a file the entry does not list, before asking the server", async () => {
    const endpoint = await connect(stdio(protocol));
    const [notes] = await endpoint.listSkills();
    await expect(endpoint.readSkill(notes!, "secrets.md")).rejects.toMatchObject({
      kind: "protocol",
      data: { reason: "unlisted" },
    });
  });
});

describe("skills over Streamable HTTP", () => {
  let http: ExampleHttp;
  beforeAll(async () => {
    http = await startExampleHttp("skills-server");
  });
  afterAll(() => http.stop());

  it("lists and reads in auto mode", async () => {
    const endpoint = await connect({ transport: "streamable-http", id: "skills", url: http.url, headers: {} });
    const skills = await endpoint.listSkills();
    expect(skills).toHaveLength(2);
    await expect(endpoint.readSkill(skills[1]!)).resolves.toMatchObject({ verified: true });
  });
});

it("a server without the extension lists no skills", async () => {
  const endpoint = await connect({
    transport: "stdio",
    id: "apps",
    env: {},
    ...exampleStdio("apps-server"),
  });
  await expect(endpoint.listSkills()).resolves.toEqual([]);
});
