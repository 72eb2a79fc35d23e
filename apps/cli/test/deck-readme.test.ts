import path from "node:path";
import * as deck from "@indus/deck";
import * as fleet from "@indus/fleet";
import { runReadmeExample } from "@indus/testkit";

// @indus/deck's README example mounts MCP servers through `fleetMount` from
// @indus/fleet (the deck does not depend on the fleet), so it runs here, where
// the CLI wires the two together.
jest.setTimeout(120_000);

const README = path.join(__dirname, "..", "..", "..", "packages", "deck", "README.md");
const DECK_MODULES = path.join(__dirname, "..", "..", "..", "packages", "deck", "node_modules");

it("runs the README example as written and prints what the README says", async () => {
  const { printed, expected } = await runReadmeExample({
    readme: README,
    heading: "## Mounting MCP servers",
    packages: { "@indus/deck": deck, "@indus/fleet": fleet },
    binDir: path.join(DECK_MODULES, ".bin"),
  });
  expect(printed).toBe(expected);
});
