/**
 * Era verdicts: which MCP era a server speaks, negotiated once and reused.
 * The identity a verdict is keyed by is what makes "the same server" (a
 * stdio server's command, args, cwd and env keys; an HTTP server's URL), and
 * the SDK takes a verdict back as `connect(transport, { prior })`.
 */
import {
  memoryEraVerdictStore,
  type EraVerdict,
  type EraVerdictStore,
  type LegacyVerdictReason,
  type ServerConfig,
} from "@indus/contract";
import type { Client, DiscoverResult, PriorDiscovery } from "@modelcontextprotocol/client";
import { isVerdictTrusted } from "./era-verdict-expiry";
import { discoverToKeep } from "../inbound/handshake-caps";

/** What identifies one server for its verdict; never its env values (they may be secrets). */
export function serverIdentity(config: ServerConfig): string {
  if (config.transport === "stdio") {
    return JSON.stringify(["stdio", config.command, config.args, config.cwd ?? null, Object.keys(config.env).sort()]);
  }
  return JSON.stringify(["http", config.url]);
}

/** The SDK's form of a stored verdict. */
export function priorOf(verdict: EraVerdict): PriorDiscovery {
  return verdict.kind === "modern"
    ? { kind: "modern", discover: verdict.discover as unknown as DiscoverResult }
    : { kind: "legacy" };
}

/** The verdict a connected client stands for; `reason` says how a legacy one was reached. */
export function verdictOf(client: Client, reason: LegacyVerdictReason): EraVerdict | undefined {
  const storedAt = Date.now();
  if (client.getProtocolEra() === "legacy") return { kind: "legacy", storedAt, reason };
  const discover = client.getDiscoverResult();
  if (client.getProtocolEra() !== "modern" || discover === undefined) return undefined;
  // The verdict, not the server's whole answer: a bloated discover is simply not remembered.
  const kept = discoverToKeep(discover);
  return kept === undefined ? undefined : { kind: "modern", discover: kept, storedAt };
}

/** Verdicts of this process, for hosts that give no store: reconnects still reuse them. */
export const processEraVerdicts: EraVerdictStore = memoryEraVerdictStore();

/**
 * The verdict to connect by, if one is still trusted (see
 * `era-verdict-expiry.ts`); an expired one is left for the next save to
 * replace. A store read never fails a connect: a broken store is an empty one.
 */
export async function loadVerdict(
  store: EraVerdictStore,
  identity: string,
  now = Date.now(),
): Promise<EraVerdict | undefined> {
  try {
    const verdict = await store.load(identity);
    return verdict && isVerdictTrusted(verdict, now) ? verdict : undefined;
  } catch {
    return undefined;
  }
}

/** Nor does a store write. */
export function saveVerdict(store: EraVerdictStore, identity: string, verdict: EraVerdict | undefined): Promise<void> {
  if (!verdict) return Promise.resolve();
  return store.save(identity, verdict).catch(() => undefined);
}
