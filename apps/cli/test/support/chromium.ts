/** The browser the tests drive: the Debian package `chromium` (.ci/run installs it), headless. */
import fs from "node:fs";

export const CHROMIUM = "/usr/bin/chromium";
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** Fails with what to install when the browser is missing. */
export function requireChromium(): void {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install the Debian package "chromium"`);
}
