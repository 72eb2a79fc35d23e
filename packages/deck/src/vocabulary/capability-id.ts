/** Branded tool names, so an unvetted string never reaches a catalog. */
import { TOOL_NAME_PATTERN } from "@indus/contract";
import { DeckFault } from "./deck-fault";

declare const capabilityIdBrand: unique symbol;
/** A vetted wire-facing tool name (`read`, `bg-process`, `github__create_issue`). */
export type CapabilityId = string & { readonly [capabilityIdBrand]: true };

/** The one minter of `CapabilityId`: refuses names no provider accepts. */
export function capabilityId(name: string): CapabilityId {
  if (!TOOL_NAME_PATTERN.test(name)) {
    throw new DeckFault(
      "unknown-capability",
      `"${name}" is not a valid capability id: use 1-64 of a-z, A-Z, 0-9, _ or -`,
    );
  }
  return name as CapabilityId;
}
