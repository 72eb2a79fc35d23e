/**
 * The endpoint's side of the Skills extension (SEP-2640), through the SDK's
 * `SkillsClient`: it lists and gets skill entries and reads skill files,
 * verifying each file against its entry (listed, size, digest, and for
 * `SKILL.md` the frontmatter). A file that fails is refused with a
 * `protocol` fault naming the file and the check, and none of it is kept.
 * Entries a server lists that break the extension's rules are left out.
 */
import {
  protocolFault,
  type GatewayCallOptions,
  type JsonObject,
  type ProtocolFault,
  type SkillEntry,
  type SkillFile,
} from "@indus/contract";
import type { Client } from "@modelcontextprotocol/client";
import { SkillVerificationError, SkillsClient, type Skill } from "@modelcontextprotocol/client/ext/skills";

/** What the skills member needs of its endpoint. */
export interface SkillsHost {
  readonly server: string;
  /** Run `op` on the live session's client; failures become the endpoint's faults. */
  readonly onClient: <T>(what: string, op: (client: Client) => Promise<T>) => Promise<T>;
  /** How long one skills request may take. */
  readonly timeoutMs: () => number;
}

export class SkillsMember {
  /** One `SkillsClient` per live SDK client (a reconnect brings a new one). */
  private readonly clients = new WeakMap<Client, SkillsClient>();

  constructor(private readonly host: SkillsHost) {}

  private skillsOf(client: Client): SkillsClient {
    let skills = this.clients.get(client);
    if (skills === undefined) {
      skills = new SkillsClient(client, { skipInvalid: true });
      this.clients.set(client, skills);
    }
    return skills;
  }

  private requestOptions(options: GatewayCallOptions) {
    return { timeout: this.host.timeoutMs(), ...(options.signal !== undefined && { signal: options.signal }) };
  }

  /** Every listed skill (all pages); `[]` from a server without the extension. */
  list(options: GatewayCallOptions = {}): Promise<readonly SkillEntry[]> {
    return this.host.onClient("list skills", async (client) => {
      const skills = this.skillsOf(client);
      if (!skills.supported) return [];
      const listing = await skills.list({}, this.requestOptions(options));
      return listing.skills.map((skill) => skill as unknown as SkillEntry);
    });
  }

  get(uri: string, options: GatewayCallOptions = {}): Promise<SkillEntry> {
    return this.host.onClient(`get skill ${uri}`, async (client) => {
      const { skill } = await this.skillsOf(client).get(uri, this.requestOptions(options));
      return skill as unknown as SkillEntry;
    });
  }

  read(skill: SkillEntry, ref: string | undefined, options: GatewayCallOptions = {}): Promise<SkillFile> {
    const what = `read skill ${skill.uri}${ref === undefined ? "" : ` file ${ref}`}`;
    return this.host.onClient(what, async (client) => {
      try {
        const file = await this.skillsOf(client).read(skill as unknown as Skill, ref, this.requestOptions(options));
        return {
          uri: file.uri,
          verified: file.verified,
          ...(file.mimeType !== undefined && { mimeType: file.mimeType }),
          ...(file.text !== undefined && { text: file.text }),
          ...(file.body !== undefined && { body: file.body }),
        };
      } catch (error) {
        throw this.refusal(skill, error);
      }
    });
  }

  /** A failed verification as a fault naming the skill, the file and the check; anything else unchanged. */
  private refusal(skill: SkillEntry, error: unknown): unknown {
    if (error instanceof SkillVerificationError) return verificationFault(this.host.server, skill, error);
    // An entry that breaks the extension's rules is refused before any request (the SDK's TypeError).
    if (error instanceof TypeError) {
      return protocolFault("protocol", `server "${this.host.server}": ${error.message}`, error, {
        server: this.host.server,
        data: { reason: "entry", uri: skill.uri },
      });
    }
    return error;
  }
}

function verificationFault(server: string, skill: SkillEntry, error: SkillVerificationError): ProtocolFault {
  const data: JsonObject = { reason: error.reason, uri: error.uri, skill: skill.uri };
  if (error.differences.length > 0) data["differences"] = [...error.differences];
  const message = `server "${server}": skill ${skill.frontmatter.name} refused, ${error.reason} check failed: ${error.message}`;
  return protocolFault("protocol", message, error, { server, data });
}
