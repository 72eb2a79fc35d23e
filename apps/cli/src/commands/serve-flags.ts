/** The flags of `indusr mcp serve`, read by the command and by the deck it boots. */
import type { GatewayFlags } from "./serve-gateway-flags";
import type { DeckFlags } from "./shared";

export interface ServeFlags extends DeckFlags, GatewayFlags {
  readonly stdio?: boolean;
  readonly http?: boolean;
  readonly host: string;
  readonly port: string;
  readonly tokenEnv: string;
  readonly stateless?: boolean;
  readonly sessionPrefix?: string;
  readonly allowedHosts?: string;
  readonly names?: string;
  /** Commander folds `--no-builtins` into `builtins: false`. */
  readonly builtins?: boolean;
  readonly bootWait?: string;
}
