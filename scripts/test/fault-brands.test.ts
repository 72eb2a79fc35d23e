// Every error class a package exports carries the indus fault brand and a
// static `isInstance`, so a host can recognise it across two installed copies.
import fs from "node:fs";
import path from "node:path";
import { isIndusFault } from "../../packages/contract/src/index";

const packagesDir = path.join(__dirname, "..", "..", "packages");
const packageNames = fs
  .readdirSync(packagesDir)
  .filter((dir) => fs.existsSync(path.join(packagesDir, dir, "src", "index.ts")))
  .sort();

type ErrorClass = (abstract new (...args: never[]) => Error) & { isInstance?: (value: unknown) => boolean };

function isErrorClass(value: unknown): value is ErrorClass {
  return typeof value === "function" && (value as { prototype?: unknown }).prototype instanceof Error;
}

async function exportedErrorClasses(dir: string): Promise<[string, ErrorClass][]> {
  const api = (await import(`@indus/${dir}`)) as Record<string, unknown>;
  return Object.entries(api).filter((entry): entry is [string, ErrorClass] => isErrorClass(entry[1]));
}

it("finds the error classes to check", async () => {
  const contract = (await exportedErrorClasses("contract")).map(([name]) => name);
  const deck = (await exportedErrorClasses("deck")).map(([name]) => name);
  expect(contract).toEqual(expect.arrayContaining(["ProtocolFault"]));
  expect(deck).toEqual(expect.arrayContaining(["DeckFault"]));
});

it.each(packageNames)("brands every error class @indus/%s exports", async (dir) => {
  for (const [name, errorClass] of await exportedErrorClasses(dir)) {
    const instance: unknown = Object.create(errorClass.prototype as object);
    expect([name, typeof errorClass.isInstance]).toEqual([name, "function"]);
    expect([name, errorClass.isInstance?.(instance), isIndusFault(instance)]).toEqual([name, true, true]);
    expect([name, errorClass.isInstance?.(new Error("plain"))]).toEqual([name, false]);
  }
});
