/**
 * `/<server>:<skill> [request]` in the interactive session: the server's skill
 * (SEP-2640) is read now, verified against its entry, and loaded into the
 * conversation as the next task, tagged with the server it came from (see
 * `loadedSkillText`). A skill that fails verification is refused and nothing
 * of it reaches the model. The listing is fetched once, on first use.
 */
import type { McpCatalogView } from "../../boot/boot-types";
import { commandOf, loadedSkillText, type SkillCommand } from "../../skills/skill-commands";
import type { Style } from "../render";
import type { TerminalView } from "./terminal-view";

export class SkillLines {
  private listing: Promise<readonly SkillCommand[]> | undefined;

  constructor(
    private readonly catalog: McpCatalogView | undefined,
    private readonly view: TerminalView,
    private readonly style: Style,
  ) {}

  private skills(): Promise<readonly SkillCommand[]> {
    this.listing ??= this.catalog?.skills ? this.catalog.skills().catch(() => []) : Promise.resolve([]);
    return this.listing;
  }

  /** `/<server>:<skill>` of every skill, for Tab completion. */
  async commands(): Promise<string[]> {
    return (await this.skills()).map((skill) => `/${commandOf(skill)}`);
  }

  /** Undefined when the line names no skill; else the text to run, or none when the skill could not be loaded (said). */
  async load(line: string, signal?: AbortSignal): Promise<{ readonly text?: string } | undefined> {
    const head = line.slice(1).split(/\s/)[0] ?? "";
    if (!head.includes(":") || !this.catalog?.loadSkill) return undefined;
    const skill = (await this.skills()).find((candidate) => commandOf(candidate) === head);
    if (!skill) return undefined;
    try {
      const manifest = await this.catalog.loadSkill(skill, signal);
      this.view.line(this.style.dim(`▸ skill ${commandOf(skill)} (${skill.entry.uri}, verified)`));
      return { text: loadedSkillText(skill, manifest, line.slice(1 + head.length)) };
    } catch (error) {
      this.view.line(this.style.red(`✗ /${head}: ${(error as Error).message}`));
      return {};
    }
  }
}
