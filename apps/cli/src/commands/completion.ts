/**
 * `indusr completion bash|zsh|fish`: a completion script generated from the
 * command tree itself, so it never lists a command or flag that does not exist.
 */
import type { Command } from "commander";
import { EXIT } from "../exit";

interface Node {
  readonly name: string;
  readonly subcommands: readonly string[];
  readonly flags: readonly string[];
}

function describe(program: Command): Node[] {
  const flagsOf = (c: Command) => c.options.flatMap((o) => [o.long, o.short].filter((f): f is string => Boolean(f)));
  const nodes: Node[] = [{ name: "", subcommands: program.commands.map((c) => c.name()), flags: flagsOf(program) }];
  for (const sub of program.commands) {
    nodes.push({ name: sub.name(), subcommands: sub.commands.map((c) => c.name()), flags: flagsOf(sub) });
    for (const leaf of sub.commands)
      nodes.push({ name: `${sub.name()} ${leaf.name()}`, subcommands: [], flags: flagsOf(leaf) });
  }
  return nodes;
}

function bash(nodes: Node[]): string {
  const cases = nodes.map((n) => `    "${n.name}") words="${[...n.subcommands, ...n.flags].join(" ")}" ;;`).join("\n");
  return `# indusr bash completion: eval "$(indusr completion bash)"
_indusr() {
  local cur path="" w i
  cur="\${COMP_WORDS[COMP_CWORD]}"
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    [[ "$w" == -* ]] && continue
    if [[ -z "$path" ]]; then path="$w"; elif [[ "$path" != *" "* ]]; then path="$path $w"; fi
  done
  local words=""
  case "$path" in
${cases}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _indusr indusr indusagir
`;
}

function zsh(nodes: Node[]): string {
  return `#compdef indusr indusagir
# indusr zsh completion: eval "$(indusr completion zsh)"
autoload -U +X bashcompinit && bashcompinit
${bash(nodes)}`;
}

function fish(nodes: Node[]): string {
  const lines = ["# indusr fish completion: indusr completion fish | source"];
  for (const bin of ["indusr", "indusagir"]) {
    const top = nodes[0]!;
    for (const sub of top.subcommands) lines.push(`complete -c ${bin} -f -n "__fish_use_subcommand" -a ${sub}`);
    for (const n of nodes.slice(1)) {
      const parts = n.name.split(" ");
      const cond =
        parts.length === 1
          ? `__fish_seen_subcommand_from ${parts[0]}`
          : `__fish_seen_subcommand_from ${parts[0]}; and __fish_seen_subcommand_from ${parts[1]}`;
      for (const sub of n.subcommands) lines.push(`complete -c ${bin} -f -n "${cond}" -a ${sub}`);
      for (const flag of n.flags.filter((f) => f.startsWith("--")))
        lines.push(`complete -c ${bin} -n "${cond}" -l ${flag.slice(2)}`);
    }
    for (const flag of top.flags.filter((f) => f.startsWith("--")))
      lines.push(`complete -c ${bin} -l ${flag.slice(2)}`);
  }
  return `${lines.join("\n")}\n`;
}

/** `program` is the command tree itself, passed in so this module never imports `program.ts` back. */
export async function completionCommand(shell: "bash" | "zsh" | "fish", program: Command): Promise<number> {
  const nodes = describe(program);
  process.stdout.write(shell === "bash" ? bash(nodes) : shell === "zsh" ? zsh(nodes) : fish(nodes));
  return EXIT.ok;
}
