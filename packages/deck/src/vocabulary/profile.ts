/** The named capability sets a session can be provisioned with. */
export const PROFILES = ["authoring", "survey", "all"] as const;
export type Profile = (typeof PROFILES)[number];

export function isProfile(value: unknown): value is Profile {
  return typeof value === "string" && (PROFILES as readonly string[]).includes(value);
}
