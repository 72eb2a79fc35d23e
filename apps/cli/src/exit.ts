/**
 * Exit codes and the usage error: a leaf every command imports, so no command
 * imports the command tree (`program.ts`) back.
 */
import { brandFault, faultBrand, hasFaultBrand } from "@indus/contract";

/** Exit codes: 0 ok, 1 a tool or server failed, 2 the command line was wrong. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

const USAGE_ERROR_BRAND = faultBrand("UsageError");

/** The command line was wrong: printed without a stack trace, exit code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";

  static isInstance(value: unknown): value is UsageError {
    return hasFaultBrand(value, USAGE_ERROR_BRAND);
  }
}
brandFault(UsageError, "UsageError");
