/**
 * @indus/deck/trust: the trust gate's parts a host that keeps lock files
 * needs: the pin gate, the pin book (parse, serialize, fill), approving and
 * describing pin changes, inspecting a definition, and the texts a withheld
 * or flagged definition is shown with.
 */
export { PinGate } from "../trust/pin-gate";
export type { AddedDefinition, FlaggedDefinition, PinGateOptions, PinStore, TrustReport } from "../trust/pin-gate";
export { EMPTY_PIN_BOOK, parsePinBook, serializePinBook, withMissingPins } from "../trust/pin-book";
export type { KindPins, ListedWith, MissingPins, Pin, PinBook, ServerPins } from "../trust/pin-book";
export { approvePins, describePinChange } from "../trust/pin-approval";
export type { Listings, OnlyDefinition, PinChange, PinChangeKind } from "../trust/pin-approval";
export { MAX_DESCRIPTION_CHARS, inspectDefinition } from "../trust/inspect";
export type { InspectContext } from "../trust/inspect";
export type { KnownTools } from "../trust/cross-server";
export { pinnedDefinition } from "../trust/pinned-definition";
export { definitionLabel, findingText } from "../trust/withheld-message";
export { withoutHidden as visibleText } from "../trust/hidden-characters";
