// `notify:` entries resolved against the environment: a webhook URL and its signing key are
// secrets, so the file only names the variables that hold them (`env:NAME`), and the values are
// added to the run's secret set (load.ts) so no output ever carries them.
import type { SourceLocation } from '../core/model.js';
import type { NotifyTarget } from './types.js';
import { envVariableOf } from './env-ref.js';

/** One entry as written in steward.yaml (the schema has checked its shape). */
export interface NotifyEntry {
  type: NotifyTarget['type'];
  url: string;
  secret?: string;
  on?: NotifyTarget['on'];
  teams?: string[];
}

export function notifyTargets(entries: readonly NotifyEntry[], env: Record<string, string | undefined>, locationOf: (index: number) => SourceLocation): NotifyTarget[] {
  const fromEnv = (ref: string) => {
    const variable = envVariableOf(ref);
    const value = env[variable]?.trim();
    return { variable, value: value ? value : null };
  };
  return entries.map((n, i) => ({
    type: n.type,
    url: fromEnv(n.url),
    secret: n.secret ? fromEnv(n.secret) : null,
    on: n.on ?? 'change',
    teams: n.teams ?? null,
    location: locationOf(i),
  }));
}
