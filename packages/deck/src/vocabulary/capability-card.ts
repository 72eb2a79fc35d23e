/** A catalog row: what help and listings show, and how the live card is built. */
import type { Capability } from "./card";
import type { CapabilityId } from "./capability-id";
import type { DeckContext } from "./deck-context";
import type { Profile } from "./profile";

/** Mints the live capability for one context; pure with respect to the deck. */
export type BuildFn = (ctx: DeckContext) => Capability;

/** One catalog row: identity for help and listings, membership, and a builder. */
export interface CapabilityCard {
  readonly id: CapabilityId;
  readonly title: string;
  readonly summary: string;
  readonly profiles: readonly Profile[];
  readonly build: BuildFn;
}
