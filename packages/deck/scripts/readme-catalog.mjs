#!/usr/bin/env node
// Rewrites the catalog table in README.md from the built code: `pnpm build && node scripts/readme-catalog.mjs`.
// `test/readme.test.ts` fails when the README is out of sync.
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { withCatalogTable } from "../dist/catalog.js";

const readme = fileURLToPath(new URL("../README.md", import.meta.url));
const before = fs.readFileSync(readme, "utf8");
const after = withCatalogTable(before);
if (after === before) console.log("README catalog is up to date");
else {
  fs.writeFileSync(readme, after);
  console.log("README catalog updated");
}
