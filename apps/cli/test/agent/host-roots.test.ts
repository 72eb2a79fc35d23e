/**
 * The session's roots (cwd plus `--add-dir`, as `file://` URIs) and `/add-dir`,
 * which adds one and tells the mounted servers their roots changed.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { BootedDeck } from "../../src/boot/boot-types";
import { AgentClientHost } from "../../src/agent/host/agent-client-host";
import { makeStyle } from "../../src/agent/render";
import { runSlashCommand, type SlashContext } from "../../src/agent/interactive/slash-commands";
import type { AgentSession } from "../../src/agent/session/session";

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "indusr-roots-"));
  for (const dir of ["project", "lib", "docs"]) fs.mkdirSync(path.join(root, dir));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const uri = (dir: string) => pathToFileURL(dir).href;

test("roots are the cwd and the --add-dir folders, once each, as file:// URIs", async () => {
  const cwd = path.join(root, "project");
  const host = new AgentClientHost({ cwd, addDirs: ["../lib", path.join(root, "lib"), "."] });
  expect(await host.hooks().listRoots!("srv")).toEqual([
    { uri: uri(cwd), name: "project" },
    { uri: uri(path.join(root, "lib")), name: "lib" },
  ]);
});

test("/add-dir adds a folder, tells the servers, and refuses duplicates and missing folders", async () => {
  const cwd = path.join(root, "project");
  const host = new AgentClientHost({ cwd });
  const notify = jest.fn(() => Promise.resolve(2));
  const printed: string[] = [];
  const ctx = {
    session: {} as AgentSession,
    deck: { mcp: { notifyRootsChanged: notify } } as unknown as BootedDeck,
    style: makeStyle(false),
    print: (text: string) => printed.push(text),
    exit: () => undefined,
    host,
  } satisfies SlashContext;

  await runSlashCommand("/add-dir ../docs", ctx);
  expect(printed.pop()).toBe(`Added ${path.join(root, "docs")} (2 roots; told 2 servers).`);
  expect(notify).toHaveBeenCalledTimes(1);
  expect((await host.hooks().listRoots!("srv")).map((r) => r.uri)).toEqual([uri(cwd), uri(path.join(root, "docs"))]);

  await runSlashCommand(`/add-dir ${path.join(root, "docs")}`, ctx);
  expect(printed.pop()).toBe(`${path.join(root, "docs")} is already a root.`);
  await runSlashCommand("/add-dir nowhere", ctx);
  expect(printed.pop()).toBe(`✗ /add-dir: ${path.join(cwd, "nowhere")} does not exist`);
  expect(notify).toHaveBeenCalledTimes(1);

  await runSlashCommand("/add-dir", ctx);
  expect(printed).toEqual(expect.arrayContaining([`  ${cwd}`, `  ${path.join(root, "docs")}`]));
});

test("a request that arrives before the session is bound is declined, with a note for the call that caused it", async () => {
  const host = new AgentClientHost({ cwd: root });
  const hooks = host.hooks();
  expect(hooks.elicitModes).toEqual(["form", "url"]);
  expect(await hooks.elicit!("srv", { message: "Who?", requestedSchema: { type: "object", properties: {} } })).toEqual({
    action: "decline",
  });
  await expect(
    hooks.createMessage!("srv", { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 }),
  ).rejects.toMatchObject({
    code: -1,
    rpcCode: -1,
    kind: "protocol",
  });
  expect(host.takeNotes("other__tool")).toEqual([]);
  const notes = host.takeNotes("srv__ask");
  expect(notes).toHaveLength(2);
  expect(notes[0]).toContain(
    'the server "srv" asked the user for input ("Who?"), and indusr declined it: the request came before the session started',
  );
  expect(host.takeNotes("srv__ask")).toEqual([]);
});
