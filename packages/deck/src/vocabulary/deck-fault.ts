/** The deck's typed failure, branded so two installed copies recognise each other's. */
import { brandFault, faultBrand, hasFaultBrand } from "@indus/contract";

export const DECK_FAULT_KINDS = ["unknown-capability", "build-failed", "bridge", "backend"] as const;
export type DeckFaultKind = (typeof DECK_FAULT_KINDS)[number];

const DECK_FAULT_BRAND = faultBrand("DeckFault");

/** A typed deck failure; branch on `kind`. */
export class DeckFault extends Error {
  override readonly name = "DeckFault";
  readonly kind: DeckFaultKind;

  constructor(kind: DeckFaultKind, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
  }

  /** True for a fault minted by any copy of `@indus/deck` (brand check, not `instanceof`). */
  static isInstance(value: unknown): value is DeckFault {
    return hasFaultBrand(value, DECK_FAULT_BRAND);
  }
}
brandFault(DeckFault, "DeckFault");

export function isDeckFault(value: unknown): value is DeckFault {
  return (
    DeckFault.isInstance(value) ||
    (value instanceof Error &&
      value.name === "DeckFault" &&
      (DECK_FAULT_KINDS as readonly unknown[]).includes((value as { kind?: unknown }).kind))
  );
}

/** The result of a fallible deck operation. */
export type DeckResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly fault: DeckFault };
