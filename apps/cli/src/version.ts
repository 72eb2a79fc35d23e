import { version } from "../package.json";

/** The CLI's version, inlined at build time. */
export const VERSION: string = version;
