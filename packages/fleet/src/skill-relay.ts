/**
 * Every mounted server's skills (SEP-2640) as one listing, under per-server
 * URIs in the catalog's naming mode, and the way back from a published skill
 * file URI to its server.
 *
 * - prefixed: each skill and each of its files is published under its
 *   server (`skill://<server>/<path>`, see `scoped-uris.ts`; another scheme
 *   as `indus://<server>/<uri>`). The server becomes the skill's organising
 *   prefix: its name, its `SKILL.md` bytes and every digest stay the server's
 *   own, so a client verifies exactly what the server sent. Two servers'
 *   skills of one name are two skills (`skill://a/pdf`, `skill://b/pdf`).
 * - as-is: entries as the servers sent them; two servers listing one skill
 *   URI is a clash, and the first server in config order keeps it.
 */
import { EXTENSIONS, protocolFault, type GatewayCallOptions, type McpEndpoint, type SkillEntry } from "@indus/contract";
import { gatewayUri, type Owner } from "./catalog-naming";
import { readyEndpoints } from "./follow-endpoints";
import { firstOfferWins, type NameClash, type NamingMode, type Offered } from "./names";
import { isScopedUri, scopeUri, unscopeUri } from "./scoped-uris";
import type { EndpointFleet } from "./server-fleet";

/** A skill file's URI under its server (prefixed names). */
function publishedFileUri(server: string, uri: string): string {
  return isScopedUri(uri) ? scopeUri(server, uri) : gatewayUri(server, uri);
}

/** The file URIs of an entry: its `SKILL.md` and each listed file (none for a `"dynamic"` skill). */
function fileUris(entry: SkillEntry): string[] {
  const files = Array.isArray(entry["resources"]) ? entry["resources"] : [];
  const listed = files.flatMap((file) =>
    typeof file === "object" && file !== null && !Array.isArray(file) && typeof file["uri"] === "string"
      ? [file["uri"]]
      : [],
  );
  return [entry.uri, ...listed];
}

/** The entry with every URI published under `server`, and the way back for each. */
function publishEntry(server: string, entry: SkillEntry): { entry: SkillEntry; owners: [string, Owner][] } {
  const owners = fileUris(entry).map((original): [string, Owner] => [
    publishedFileUri(server, original),
    { server, original },
  ]);
  const resources = Array.isArray(entry["resources"])
    ? entry["resources"].map((file) =>
        typeof file === "object" && file !== null && !Array.isArray(file) && typeof file["uri"] === "string"
          ? { ...file, uri: publishedFileUri(server, file["uri"]) }
          : file,
      )
    : entry["resources"];
  const published = { ...entry, uri: publishedFileUri(server, entry.uri) } as SkillEntry;
  if (resources !== undefined) published["resources"] = resources;
  return { entry: published, owners };
}

export interface SkillListing {
  readonly skills: SkillEntry[];
  readonly clashes: NameClash[];
}

export class SkillRelay {
  /** Published skill file URI → owner, from the last listing. */
  private owners = new Map<string, Owner>();

  constructor(
    private readonly fleet: EndpointFleet,
    private readonly names: NamingMode,
  ) {}

  /** Every ready server's skills; a server whose listing fails contributes none. */
  async list(options: GatewayCallOptions): Promise<SkillListing> {
    const lists = await Promise.all(
      this.offering().map(async (endpoint) => {
        try {
          const skills = await endpoint.listSkills!(options);
          return skills.map((item) => ({ server: endpoint.config.id, item }));
        } catch {
          return [];
        }
      }),
    );
    return this.publish(lists.flat());
  }

  private publish(offers: Offered<SkillEntry>[]): SkillListing {
    const owners = new Map<string, Owner>();
    if (this.names === "as-is") {
      const { kept, clashes } = firstOfferWins(offers, (entry) => entry.uri, "skill");
      for (const { server, item } of kept) for (const uri of fileUris(item)) owners.set(uri, { server, original: uri });
      this.owners = owners;
      return { skills: kept.map(({ item }) => item), clashes };
    }
    const skills = offers.map(({ server, item }) => {
      const published = publishEntry(server, item);
      for (const [uri, owner] of published.owners) owners.set(uri, owner);
      return published.entry;
    });
    this.owners = owners;
    return { skills, clashes: [] };
  }

  /** The server behind a published skill file URI: from the last listing, else (prefixed) from the URI itself. */
  owner(uri: string): Owner | undefined {
    const listed = this.owners.get(uri);
    if (listed !== undefined || this.names === "as-is") return listed;
    const scoped = unscopeUri(uri);
    return scoped !== undefined && this.fleet.endpoint(scoped.server) !== undefined ? scoped : undefined;
  }

  /**
   * `skills/get` by a published `SKILL.md` URI: its owner's entry, published
   * the same way. An unlisted URI under as-is names goes to the servers
   * offering skills in config order; the first that serves it answers.
   */
  async get(uri: string, options: GatewayCallOptions): Promise<SkillEntry> {
    const owner = this.owner(uri);
    if (owner !== undefined) {
      const endpoint = this.fleet.endpoint(owner.server);
      if (endpoint?.getSkill === undefined) throw noSkill(uri);
      const entry = await endpoint.getSkill(owner.original, options);
      return this.names === "as-is" ? entry : publishEntry(owner.server, entry).entry;
    }
    if (this.names === "prefixed") throw noSkill(uri);
    return this.firstServing(uri, options);
  }

  private async firstServing(uri: string, options: GatewayCallOptions): Promise<SkillEntry> {
    let last: unknown = noSkill(uri);
    for (const endpoint of this.offering()) {
      try {
        return await endpoint.getSkill!(uri, options);
      } catch (error) {
        last = error;
      }
    }
    throw last;
  }

  /** Ready servers that declared the Skills extension, in config order. */
  private offering(): McpEndpoint[] {
    return readyEndpoints(this.fleet).filter(
      (endpoint) => endpoint.listSkills !== undefined && declaresSkills(endpoint),
    );
  }
}

function declaresSkills(endpoint: McpEndpoint): boolean {
  const extensions = endpoint.serverCapabilities?.["extensions"];
  return typeof extensions === "object" && extensions !== null && EXTENSIONS.skills in extensions;
}

function noSkill(uri: string) {
  return protocolFault("protocol", `no ready server offers skill ${uri}`, undefined, { rpcCode: -32602 });
}
