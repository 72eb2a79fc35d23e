/**
 * What a typed line asks of the mounted servers before it runs: `@server:uri`
 * attaches a resource to the prompt, `/server:skill` loads a skill
 * (`skill-lines.ts`) and `/server:prompt args` fetches a prompt to run as the
 * task. The parsing is in `mentions.ts`; this says what happened on
 * the terminal.
 */
import type { McpControl } from "../../boot/boot-types";
import type { Style } from "../render";
import { attachMentions, MentionCompleter, parsePromptCommand, promptText } from "./mentions";
import { SkillLines } from "./skill-lines";
import { SLASH_COMMANDS } from "./slash-commands";
import type { TerminalView } from "./terminal-view";

export class ServerMentions {
  readonly completer: MentionCompleter;
  private readonly skills: SkillLines;

  constructor(
    private readonly mcp: McpControl,
    private readonly view: TerminalView,
    private readonly style: Style,
  ) {
    this.skills = new SkillLines(mcp.catalog, view, style);
    this.completer = new MentionCompleter(
      mcp.catalog,
      () => this.readyServers(),
      SLASH_COMMANDS.map((c) => c.name),
      () => this.skills.commands(),
    );
  }

  private readyServers(): string[] {
    return this.mcp
      .servers()
      .filter((s) => s.phase === "ready")
      .map((s) => s.id);
  }

  /**
   * `/server:prompt args`: undefined when the line is no prompt command;
   * else the prompt's text to run as the next task, or no text when it
   * could not be had (said on the terminal).
   */
  async prompt(line: string): Promise<{ readonly text?: string } | undefined> {
    const skill = await this.skills.load(line);
    if (skill) return skill;
    const catalog = this.mcp.catalog;
    const head = line.slice(1).split(/\s/)[0] ?? "";
    if (!catalog || !head.includes(":")) return undefined;
    const parsed = parsePromptCommand(line, await this.completer.promptList());
    if (!parsed) {
      this.view.line(`Unknown prompt /${head}: Tab after / lists the servers' prompts.`);
      return {};
    }
    if (parsed.missing.length > 0) {
      this.view.line(
        `/${head} needs ${parsed.missing.map((a) => `${a}=…`).join(" ")} (arguments: ${parsed.prompt.arguments.map((a) => a.name).join(", ")})`,
      );
      return {};
    }
    let text: string;
    try {
      text = promptText(await catalog.getPrompt(parsed.prompt.server, parsed.prompt.name, parsed.args));
    } catch (error) {
      this.view.line(this.style.red(`✗ /${head}: ${(error as Error).message}`));
      return {};
    }
    this.view.line(this.style.dim(`▸ prompt ${parsed.prompt.server}:${parsed.prompt.name}`));
    return { text };
  }

  /** Read every `@server:uri` in the line and append it to the prompt. */
  async withAttachments(line: string): Promise<string> {
    const catalog = this.mcp.catalog;
    if (!catalog || !line.includes("@")) return line;
    const { prompt, attached, failed } = await attachMentions(line, catalog, new Set(this.readyServers()));
    for (const a of attached) this.view.line(this.style.dim(`📎 @${a.server}:${a.uri} (${a.chars} chars)`));
    for (const f of failed) this.view.line(`${this.style.yellow("warning:")} not attached: ${f}`);
    return prompt;
  }
}
