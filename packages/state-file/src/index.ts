export { StateFileError, type StateFileErrorKind } from "./state-file-error";
export { writeTarget } from "./write-target";
export { withFileLock, withFileLockSync, type LockOptions } from "./file-lock";
export { writeFileAtomic, writeFileAtomicSync, type WriteOptions } from "./atomic-write";
export {
  readStateText,
  readStateTextSync,
  updateStateFile,
  updateStateFileSync,
  type StateEdit,
  type StateFileOptions,
} from "./state-update";
export { readJsonState, readJsonStateSync, updateJsonState, updateJsonStateSync, type Decode } from "./json-state";
