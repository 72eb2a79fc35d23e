/**
 * @indus/deck/catalog: lookups over the capability catalog and the built-in
 * table (profiles, ids, cards by profile), and the README catalog table. A
 * host composes with `provisionDeck` and the `ToolDeck` of the main entry;
 * these are for tools and tests that read the catalog itself.
 */
export { PROFILES } from "../vocabulary";
export {
  capabilityCards,
  capabilityIndex,
  capabilityIds,
  cardProfiles,
  cardsForProfile,
  findCard,
  hasCapability,
  indexCapabilityCards,
} from "../catalog";
export {
  MUTATING_PROFILES,
  READ_ONLY_PROFILES,
  buildBuiltin,
  buildBuiltinsForProfile,
  builtinIds,
  isReadOnlyMembership,
} from "../builtin";
export type { BuiltinDescriptor } from "../builtin";
export { catalogMarkdown, withCatalogTable } from "../catalog-table";
