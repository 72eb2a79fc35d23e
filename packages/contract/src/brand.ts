/**
 * Error brands. `instanceof` fails when two copies of a package sit in one
 * tree (each copy has its own class), so every indus error class also carries
 * a marker from the global symbol registry and offers `isInstance(value)`,
 * as vercel/ai and the MCP SDK do. The marker lives on the prototype, so it
 * costs nothing per error and stays out of the public types.
 */

/** Carried by every indus error class, whatever its package. */
export const FAULT_BRAND: unique symbol = Symbol.for("indus.fault");

/** The brand of one error class: `Symbol.for("indus.fault.<ClassName>")`. */
export function faultBrand(className: string): symbol {
  return Symbol.for(`indus.fault.${className}`);
}

/**
 * Brand `errorClass` as the indus error `className` (and as an indus error in
 * general). Call once, right after the class declaration.
 */
export function brandFault(errorClass: abstract new (...args: never[]) => Error, className: string): void {
  for (const brand of [FAULT_BRAND, faultBrand(className)]) {
    Object.defineProperty(errorClass.prototype, brand, { value: true, enumerable: false });
  }
}

/** True when `value` carries `brand` (own or inherited), whichever copy minted it. */
export function hasFaultBrand(value: unknown, brand: symbol = FAULT_BRAND): boolean {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}

/** True for an error of any indus error class, from any copy of any indus package. */
export function isIndusFault(value: unknown): value is Error {
  return hasFaultBrand(value);
}
