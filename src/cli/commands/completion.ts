// `steward completion bash|zsh|fish`: a completion script generated from the program itself
// (its commands, their long options and what each option's value completes to), so it never
// lists a flag that does not exist. Values come from the option's parser (`Completes`): a fixed
// list (`--format`, `--fail-on`, `--severity`), or the ids of the policies the config loads
// (`--only`, `--skip`), asked of `steward list --format ids` when completing.
import type { Command, Option } from 'commander';
import type { CliContext } from '../context.js';
import type { Completes } from '../options.js';
import { InputError } from '../../library/startup.js';
import { summaryOf } from './summaries.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

interface Flag {
  long: string;
  /** null: the flag takes no value; 'file': any path. */
  values: Completes | 'file' | null;
}

interface Spec {
  commands: { name: string; description: string; flags: Flag[] }[];
  /** The program's own flags, offered after a subcommand too (commander takes them anywhere). */
  global: Flag[];
}

const POLICY_IDS = 'steward list --format ids 2>/dev/null';

function flagOf(o: Option): Flag | null {
  if (!o.long) return null;
  const completes = (o.parseArg as { completes?: Completes } | undefined)?.completes ?? (o.argChoices as readonly string[] | undefined);
  const takesValue = o.required || o.optional;
  return { long: o.long, values: takesValue ? (completes ?? 'file') : null };
}

function specOf(program: Command): Spec {
  const flags = (cmd: Command) => cmd.options.map(flagOf).filter((f): f is Flag => f !== null);
  // --help and the program's own flags (--version, --quiet, --color) work after any command.
  const global = [...flags(program), { long: '--help', values: null }];
  return {
    commands: program.commands.map((c) => ({ name: c.name(), description: c.description(), flags: flags(c).filter((f) => !global.some((g) => g.long === f.long)) })),
    global,
  };
}

/** The words a flag's value completes to, as a shell expression (a list or a command's output). */
function words(values: Completes): { list: string } | { command: string } {
  return values === 'policy-ids' ? { command: POLICY_IDS } : { list: values.join(' ') };
}

function compgenWords(values: Completes): string {
  const w = words(values);
  return 'list' in w ? w.list : `$(${w.command})`;
}

function bash(spec: Spec): string {
  const globalLongs = spec.global.map((f) => f.long).join(' ');
  // A value completes per command: `--format` takes other formats in `list` than in `check`.
  const valueCases = spec.commands
    .flatMap((c) => c.flags.filter((f) => f.values && f.values !== 'file').map((f) => `    "${c.name} ${f.long}") COMPREPLY=($(compgen -W "${compgenWords(f.values as Completes)}" -- "$cur")); return ;;`))
    .join('\n');
  const fileFlags = [...new Set([...spec.global, ...spec.commands.flatMap((c) => c.flags)].filter((f) => f.values === 'file').map((f) => f.long))];
  const cases = spec.commands.map((c) => `    ${c.name}) opts="${c.flags.map((f) => f.long).join(' ')} ${globalLongs}" ;;`).join('\n');
  return `# steward bash completion: eval "$(steward completion bash)"
_steward() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} cmd=\${COMP_WORDS[1]} opts
  case "$cmd $prev" in
${valueCases}
  esac
  case "$prev" in
    ${fileFlags.join('|')}) COMPREPLY=($(compgen -f -- "$cur")); return ;;
  esac
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${spec.commands.map((c) => c.name).join(' ')} ${globalLongs}" -- "$cur"))
    return
  fi
  case "$cmd" in
${cases}
    *) opts="${globalLongs}" ;;
  esac
  if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$opts" -- "$cur")); else COMPREPLY=($(compgen -f -- "$cur")); fi
}
complete -F _steward steward
`;
}

function zshArg(f: Flag): string {
  if (f.values === null) return `'${f.long}[]'`;
  if (f.values === 'file') return `'${f.long}=[]:file:_files'`;
  const w = words(f.values);
  return `'${f.long}=[]:value:(${'list' in w ? w.list : `\${(f)"$(${w.command})"}`})'`;
}

function zsh(spec: Spec): string {
  const cmds = spec.commands.map((c) => `    '${c.name}:${c.description.replaceAll("'", "'\\''").replaceAll(':', '\\:')}'`).join('\n');
  const cases = spec.commands.map((c) => `    ${c.name}) _arguments ${[...c.flags, ...spec.global.filter((g) => !c.flags.some((f) => f.long === g.long))].map(zshArg).join(' ')} '*:file:_files' ;;`).join('\n');
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

function fishFlag(condition: string, f: Flag): string {
  const base = `complete -c steward -n '${condition}' -l ${f.long.slice(2)}`;
  if (f.values === null) return base;
  if (f.values === 'file') return `${base} -r -F`;
  const w = words(f.values);
  return `${base} -x -a '${'list' in w ? w.list : `(${w.command})`}'`;
}

function fish(spec: Spec): string {
  const lines = ['# steward fish completion: steward completion fish | source', 'complete -c steward -f'];
  for (const f of spec.global) lines.push(fishFlag('true', f));
  for (const c of spec.commands) {
    lines.push(`complete -c steward -n __fish_use_subcommand -a ${c.name} -d '${c.description.replaceAll("'", "\\'")}'`);
    for (const f of c.flags) lines.push(fishFlag(`__fish_seen_subcommand_from ${c.name}`, f));
  }
  return `${lines.join('\n')}\n`;
}

const RENDER: Record<Shell, (spec: Spec) => string> = { bash, zsh, fish };

export function registerCompletion(program: Command, ctx: CliContext): void {
  program
    .command('completion')
    .description(summaryOf('completion'))
    .argument('<shell>', SHELLS.join('|'))
    .action((shell: string) => {
      if (!(SHELLS as readonly string[]).includes(shell)) {
        throw new InputError([{ file: 'completion', line: 0, column: 0, message: `unknown shell "${shell}" (one of ${SHELLS.join(', ')})` }]);
      }
      ctx.io.stdout.write(RENDER[shell as Shell](specOf(program)));
      ctx.exitCode = 0;
    });
}
