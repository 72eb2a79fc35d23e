import fs from "node:fs";
import path from "node:path";
import * as deck from "@indus/deck";
import { capabilityCards, catalogMarkdown, withCatalogTable } from "@indus/deck/catalog";
import { runReadmeExample } from "@indus/testkit";

jest.setTimeout(120_000);

const README = path.join(__dirname, "..", "README.md");

it("embeds the catalog table generated from the code (run `pnpm build && pnpm readme` to update)", () => {
  const readme = fs.readFileSync(README, "utf8");
  if (process.env.UPDATE_README === "1") fs.writeFileSync(README, withCatalogTable(readme));
  expect(fs.readFileSync(README, "utf8")).toBe(withCatalogTable(readme));
  for (const card of capabilityCards()) expect(catalogMarkdown()).toContain(`| \`${card.id}\` | ${card.title} |`);
});

it("runs the README example as written and prints what the README says", async () => {
  const { printed, expected } = await runReadmeExample({
    readme: README,
    heading: "## Example",
    packages: { "@indus/deck": deck },
    binDir: path.join(__dirname, "..", "node_modules", ".bin"),
  });
  expect(printed).toBe(expected);
});
