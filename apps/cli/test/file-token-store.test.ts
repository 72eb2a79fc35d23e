import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { FileTokenStore, defaultAuthDir } from "../src/auth/file-token-store";

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "indusr-tokens-"));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const record = {
  serverUrl: "https://mcp.example/mcp",
  tokens: { access_token: "at-1", token_type: "Bearer", refresh_token: "rt-1" },
};

it("keeps one private file per server, replaced atomically, and removes it", async () => {
  const store = new FileTokenStore(path.join(root, "state", "indusr", "auth"));
  expect(await store.load("linear")).toBeUndefined();
  await store.save("linear", record);
  await store.save("linear", { ...record, tokens: { ...record.tokens, access_token: "at-2" } });
  const file = store.fileOf("linear");
  expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
  expect(fs.readdirSync(path.dirname(file))).toEqual(["linear.json"]);
  expect((await store.load("linear"))?.tokens?.access_token).toBe("at-2");
  expect(await store.remove("linear")).toBe(true);
  expect(await store.remove("linear")).toBe(false);
  expect(fs.existsSync(file)).toBe(false);
});

it("treats a damaged file as no sign-in, and refuses names that are not server ids", async () => {
  const store = new FileTokenStore(root);
  fs.writeFileSync(path.join(root, "broken.json"), "{not json");
  fs.writeFileSync(path.join(root, "odd.json"), '{"tokens": {}}');
  expect(await store.load("broken")).toBeUndefined();
  expect(await store.load("odd")).toBeUndefined();
  expect(() => store.fileOf("../escape")).toThrow(/not a server id/);
});

it("lives under XDG_STATE_HOME, else ~/.local/state", () => {
  expect(defaultAuthDir({ XDG_STATE_HOME: "/x/state", HOME: "/home/u" })).toBe("/x/state/indusr/auth");
  expect(defaultAuthDir({ HOME: "/home/u" })).toBe("/home/u/.local/state/indusr/auth");
});

it("updates in one locked step, so two stores (two processes) changing one file keep both changes", async () => {
  const dir = path.join(root, "auth");
  const [a, b] = [new FileTokenStore(dir), new FileTokenStore(dir)];
  await a.save("linear", record);
  await Promise.all([
    a.update("linear", (current) => ({ ...current!, tokens: { ...record.tokens, access_token: "at-2" } })),
    b.update("linear", (current) => ({ ...current!, discovery: { issuer: "https://as.example" } })),
  ]);
  expect(await a.load("linear")).toEqual({
    ...record,
    tokens: { ...record.tokens, access_token: "at-2" },
    discovery: { issuer: "https://as.example" },
  });
  expect(fs.readdirSync(dir)).toEqual(["linear.json"]);
});
