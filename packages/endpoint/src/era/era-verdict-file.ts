/**
 * The file-backed verdict store: one JSON file of `{identity: verdict}`,
 * read on each load and updated under its lock (`@indus/state-file`) on each
 * change. Verdicts are hints, so a missing, corrupt or oversized file is an
 * empty store.
 */
import { LEGACY_VERDICT_REASONS, type EraVerdict, type EraVerdictStore } from "@indus/contract";
import { readJsonState, updateJsonState } from "@indus/state-file";

type VerdictFile = Record<string, EraVerdict>;

/** Verdicts are hints: a file grown past this is read as empty and rewritten small. */
const MAX_FILE_BYTES = 1024 * 1024;
const FILE_OPTIONS = { maxBytes: MAX_FILE_BYTES } as const;

function isLegacyReason(value: unknown): boolean {
  return (LEGACY_VERDICT_REASONS as readonly unknown[]).includes(value);
}

/** A verdict as stored, by any version of this file (files written before `reason` existed have none). */
function isVerdict(value: unknown): value is EraVerdict {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  if (typeof record["storedAt"] !== "number") return false;
  if (record["kind"] === "legacy") return record["reason"] === undefined || isLegacyReason(record["reason"]);
  return record["kind"] === "modern" && typeof record["discover"] === "object" && record["discover"] !== null;
}

/** Whatever the file holds, reduced to the verdicts it validly stores. */
function decodeVerdicts(parsed: unknown): VerdictFile {
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
  const verdicts: VerdictFile = {};
  for (const [identity, verdict] of Object.entries(parsed)) if (isVerdict(verdict)) verdicts[identity] = verdict;
  return verdicts;
}

/**
 * Verdicts kept in `file` (created with its folder on the first save). Every
 * change is a locked read-modify-write, so processes saving at once keep
 * each other's verdicts.
 */
export function fileEraVerdictStore(file: string): EraVerdictStore {
  const change = async (edit: (verdicts: VerdictFile) => void): Promise<void> => {
    await updateJsonState(
      file,
      decodeVerdicts,
      (verdicts) => {
        edit(verdicts);
        return verdicts;
      },
      FILE_OPTIONS,
    );
  };
  return {
    load: async (identity) => (await readJsonState(file, decodeVerdicts, FILE_OPTIONS))[identity],
    save: (identity, verdict) =>
      change((verdicts) => {
        verdicts[identity] = verdict;
      }),
    forget: (identity) =>
      change((verdicts) => {
        delete verdicts[identity];
      }),
  };
}
