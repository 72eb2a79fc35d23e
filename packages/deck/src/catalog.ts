/**
 * The catalog: one list of every card (12 built-ins, then 7 app cards), built
 * once and handed out as the same frozen array on every call. Every lookup is
 * derived from it, so there is never a second map to keep in sync.
 */
import type { CapabilityCard, CapabilityId } from "./vocabulary";
import type { Profile } from "./vocabulary";
import { builtinCards } from "./builtin";
import { appNovelCards } from "./cards";

let catalog: readonly CapabilityCard[] | undefined;
let index: ReadonlyMap<CapabilityId, number> | undefined;

export function capabilityCards(): readonly CapabilityCard[] {
  catalog ??= Object.freeze([...builtinCards(), ...appNovelCards()]);
  return catalog;
}

/** id → position in `cards`; on a duplicate id the first occurrence wins. */
export function indexCapabilityCards(cards: readonly Pick<CapabilityCard, "id">[]): ReadonlyMap<CapabilityId, number> {
  const map = new Map<CapabilityId, number>();
  cards.forEach((card, i) => {
    if (!map.has(card.id)) map.set(card.id, i);
  });
  return map;
}

export function capabilityIndex(): ReadonlyMap<CapabilityId, number> {
  index ??= indexCapabilityCards(capabilityCards());
  return index;
}

export function capabilityIds(): CapabilityId[] {
  return capabilityCards().map((card) => card.id);
}

export function hasCapability(id: string): boolean {
  return capabilityIndex().has(id as CapabilityId);
}

export function findCard(id: string): CapabilityCard | undefined {
  const at = capabilityIndex().get(id as CapabilityId);
  return at === undefined ? undefined : capabilityCards()[at];
}

export function cardProfiles(): ReadonlyMap<CapabilityId, readonly Profile[]> {
  const map = new Map<CapabilityId, readonly Profile[]>();
  for (const card of capabilityCards()) if (!map.has(card.id)) map.set(card.id, card.profiles);
  return map;
}

/**
 * Whether a row takes part in a profile: `all` admits every catalogued row
 * (built-ins and app cards), the others only their members. A row with no
 * profiles (a grafted MCP tool's card) is in none.
 */
export function cardInProfile(card: Pick<CapabilityCard, "profiles">, profile: Profile): boolean {
  if (card.profiles.length === 0) return false;
  return profile === "all" || card.profiles.includes(profile);
}

export function cardsForProfile(profile: Profile): CapabilityCard[] {
  return capabilityCards().filter((card) => cardInProfile(card, profile));
}
