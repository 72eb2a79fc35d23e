/**
 * The file-backed verdict store: one JSON file of `{identity: verdict}`,
 * read on each load and rewritten atomically (temp file, rename) on each
 * change. Verdicts are hints, so a missing or corrupt file is an empty store
 * and a lost concurrent write only costs one more negotiation.
 */
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { LEGACY_VERDICT_REASONS, type EraVerdict, type EraVerdictStore } from "@indus/contract";

type VerdictFile = Record<string, EraVerdict>;

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

async function readVerdicts(file: string): Promise<VerdictFile> {
  try {
    const parsed: unknown = JSON.parse(await readFile(file, "utf8"));
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
    const verdicts: VerdictFile = {};
    for (const [identity, verdict] of Object.entries(parsed)) if (isVerdict(verdict)) verdicts[identity] = verdict;
    return verdicts;
  } catch {
    return {};
  }
}

async function writeVerdicts(file: string, verdicts: VerdictFile): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temp, `${JSON.stringify(verdicts, null, 2)}\n`, { mode: 0o600 });
  await rename(temp, file);
}

/** Verdicts kept in `file` (created with its folder on the first save). */
export function fileEraVerdictStore(file: string): EraVerdictStore {
  let queue: Promise<unknown> = Promise.resolve();
  // Writes of this process go one after another, so none overwrites another.
  const change = (edit: (verdicts: VerdictFile) => void): Promise<void> => {
    const next = queue.then(async () => {
      const verdicts = await readVerdicts(file);
      edit(verdicts);
      await writeVerdicts(file, verdicts);
    });
    queue = next.catch(() => undefined);
    return next;
  };
  return {
    load: async (identity) => (await readVerdicts(file))[identity],
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
