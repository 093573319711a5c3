// `steward completion bash|zsh|fish`: a completion script generated from the program itself
// (its commands and their long options), so it never lists a flag that does not exist.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { InputError } from '../../library/index.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

interface Spec {
  commands: { name: string; description: string; options: string[] }[];
  global: string[];
}

function specOf(program: Command): Spec {
  const longs = (cmd: Command) => cmd.options.map((o) => o.long).filter((l): l is string => Boolean(l));
  return {
    commands: program.commands.map((c) => ({ name: c.name(), description: c.description(), options: [...longs(c), '--help'] })),
    global: [...longs(program), '--help', '--version'],
  };
}

function bash(spec: Spec): string {
  const cases = spec.commands.map((c) => `    ${c.name}) opts="${c.options.join(' ')}" ;;`).join('\n');
  return `# steward bash completion: eval "$(steward completion bash)"
_steward() {
  local cur=\${COMP_WORDS[COMP_CWORD]} cmd=\${COMP_WORDS[1]} opts
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${spec.commands.map((c) => c.name).join(' ')} ${spec.global.join(' ')}" -- "$cur"))
    return
  fi
  case "$cmd" in
${cases}
    *) opts="${spec.global.join(' ')}" ;;
  esac
  if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi
}
complete -F _steward steward
`;
}

function zsh(spec: Spec): string {
  const cmds = spec.commands.map((c) => `    '${c.name}:${c.description.replaceAll("'", "'\\''").replaceAll(':', '\\:')}'`).join('\n');
  const cases = spec.commands.map((c) => `    ${c.name}) _arguments ${c.options.map((o) => `'${o}[]'`).join(' ')} '*:file:_files' ;;`).join('\n');
  return `#compdef steward
# steward zsh completion: steward completion zsh > "\${fpath[1]}/_steward"
_steward() {
  local -a commands
  commands=(
${cmds}
  )
  if (( CURRENT == 2 )); then _describe 'command' commands; return; fi
  case "$words[2]" in
${cases}
  esac
}
compdef _steward steward
`;
}

function fish(spec: Spec): string {
  const lines = ['# steward fish completion: steward completion fish | source', 'complete -c steward -f'];
  for (const c of spec.commands) {
    lines.push(`complete -c steward -n __fish_use_subcommand -a ${c.name} -d '${c.description.replaceAll("'", "\\'")}'`);
    for (const o of c.options) lines.push(`complete -c steward -n '__fish_seen_subcommand_from ${c.name}' -l ${o.slice(2)}`);
  }
  return `${lines.join('\n')}\n`;
}

const RENDER: Record<Shell, (spec: Spec) => string> = { bash, zsh, fish };

export function registerCompletion(program: Command, ctx: CliContext): void {
  program
    .command('completion')
    .description('print a shell completion script: bash, zsh or fish')
    .argument('<shell>', SHELLS.join('|'))
    .action((shell: string) => {
      if (!(SHELLS as readonly string[]).includes(shell)) {
        throw new InputError([{ file: 'completion', line: 0, column: 0, message: `unknown shell "${shell}" (one of ${SHELLS.join(', ')})` }]);
      }
      ctx.io.stdout.write(RENDER[shell as Shell](specOf(program)));
      ctx.exitCode = 0;
    });
}
