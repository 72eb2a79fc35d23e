/**
 * The `indusr` entry point. Kept tiny: it parses the command line and loads
 * only the module the command needs.
 */
import { main } from "./program";

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`indusr: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
