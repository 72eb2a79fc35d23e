/** The context catalog rows are built against, and the handles a host injects. */
import type { CheckpointStore } from "./checkpoint-store";
import type { DelegateRunner } from "./delegate";
import type { MemoryStore } from "./memory-store";
import type { ReadStateHandle } from "./read-state";
import type { SaasGatewayPort } from "./saas-gateway";

/** The working context a catalog row is built against. */
export interface DeckContext {
  readonly cwd: string;
  readonly framework: DeckFramework;
}

/** Optional handles a host injects; a card degrades gracefully without them. */
export interface DeckFramework {
  readonly readState?: ReadStateHandle;
  readonly checkpoint?: CheckpointStore;
  readonly delegate?: DelegateRunner;
  readonly saas?: SaasGatewayPort;
  readonly memory?: MemoryStore;
  /** Where session files (plans, spilled results, logs) live. */
  readonly sessionDir?: string;
}
