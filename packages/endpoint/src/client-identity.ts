/**
 * Who the bridge says it is in `initialize`. Servers log and sometimes gate on
 * `clientInfo`, so it carries the real package name and version.
 */
import { version } from "../package.json";

export const CLIENT_NAME = "indus-protocol-bridge";
export const CLIENT_VERSION: string = version;

export interface ClientIdentity {
  readonly name: string;
  readonly version: string;
}

export const DEFAULT_CLIENT_INFO: ClientIdentity = { name: CLIENT_NAME, version: CLIENT_VERSION };
