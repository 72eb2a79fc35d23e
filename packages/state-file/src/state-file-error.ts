/**
 * The one error of this package: a state file that could not be updated.
 * `locked`: another process held its lock past the wait; `unwritable`: the
 * folder, the lock or the file could not be written. Either way the file
 * is as it was before the update.
 */
import { brandFault, faultBrand, hasFaultBrand } from "@indus/contract";

export type StateFileErrorKind = "locked" | "unwritable";

export class StateFileError extends Error {
  override readonly name = "StateFileError";

  constructor(
    readonly kind: StateFileErrorKind,
    /** The file the update was for (the symlink's target when it is a link). */
    readonly file: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  static isInstance(value: unknown): value is StateFileError {
    return hasFaultBrand(value, faultBrand("StateFileError"));
  }
}
brandFault(StateFileError, "StateFileError");
