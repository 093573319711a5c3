// Waivers (DESIGN §7): accepted exceptions with a reason, an owner and an expiry date.
// Waived findings stay in the report; expired waivers stop applying and are named; waivers
// that matched nothing are reported as stale.
import type { ValidateFunction } from 'ajv';
import { globMatches, literalOf, matchesEverything } from '../core/glob.js';
import { type OwnSchema, ownValidator } from '../core/own-validator.js';
import { closedSchema } from '../core/schema-id.js';
import { addProblems, InputError } from '../core/problem.js';
import { readInputFileSync } from '../io/input-file.js';
import type { InputProblem } from '../core/problem.js';
import { type Finding, GOVERNED_WAIVER_FIELDS, WAIVER_WARNING_DAYS_DEFAULT, type GovernedWaiverField, type WaiverRef } from '../core/model.js';
import { QUOTE_REFUSED_VALUE, schemaErrors, schemaProblems } from '../io/schema-problems.js';
import { locationAt, problemAt, recallYamlSource, yamlData } from '../io/yaml-source.js';
import { didYouMean } from '../policy/suggest.js';

const idOrNumber = { anyOf: [{ type: 'string', minLength: 1 }, { type: 'integer' }] };

export const waiversFileSchema = closedSchema('waivers', 'steward waivers file', {
  required: ['waivers'],
  properties: {
    waivers: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['policy', 'resource', 'reason', 'owner', 'expires'],
        properties: {
          policy: { type: 'string', minLength: 1 },
          resource: idOrNumber,
          item: idOrNumber,
          reason: { type: 'string', minLength: 1 },
          owner: { type: 'string', minLength: 1 },
          expires: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
          approver: { type: 'string', minLength: 1 },
          ticket: { type: 'string', minLength: 1 },
          risk: { enum: ['low', 'medium', 'high'] },
          created: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
          instances: {
            type: 'array',
            minItems: 1,
            uniqueItems: true,
            items: { type: 'string', minLength: 1 },
            description: 'the instances of instances: it applies on (absent: every instance)',
          },
        },
      },
    },
  },
});

export const WAIVERS_VALIDATION: OwnSchema = { schema: waiversFileSchema, options: { allErrors: true, verbose: true } };
let compiledWaivers: ValidateFunction | undefined;
const waiversValidator = () => (compiledWaivers ??= ownValidator(WAIVERS_VALIDATION));

/** A YYYY-MM-DD that is a real calendar date. */
export function isCalendarDate(s: string): boolean {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** A resource glob of only `*`: it waives every resource of its policy, today's and future ones. */
export function isCatchAll(w: Pick<WaiverRef, 'resource'>): boolean {
  return matchesEverything(w.resource);
}

export interface WaiverRules {
  allowCatchAll: boolean;
  /** Optional fields every waiver must have. */
  require?: readonly GovernedWaiverField[];
  /**
   * The names `instances:` declares, which a waiver's `instances` must be among; null when the
   * config declares none (a waiver then names no instance). Unset: not checked.
   */
  instances?: readonly string[] | null;
}

/** Parses a waivers file's text (`file` is its display path). Throws InputError. */
export function parseWaivers(text: string, file: string, rules: WaiverRules = { allowCatchAll: true }): WaiverRef[] {
  const source = recallYamlSource(text, file);
  const read = yamlData(source);
  if (read.problems.length > 0) throw new InputError(read.problems);
  const data = (read.data ?? { waivers: [] }) as { waivers: Record<string, unknown>[] };
  const errors = schemaErrors(source, 'the waivers schema', waiversValidator, data);
  if (errors) throw new InputError(schemaProblems(source, errors, QUOTE_REFUSED_VALUE));
  const bad: InputProblem[] = [];
  const waivers = data.waivers.map((w, i) => {
    const location = locationAt(source, ['waivers', i]);
    const expires = String(w.expires);
    if (!isCalendarDate(expires)) {
      bad.push(problemAt(source, ['waivers', i, 'expires'], `expires ${expires} is not a date (YYYY-MM-DD)`));
    }
    const ref: WaiverRef = {
      policy: String(w.policy),
      resource: String(w.resource),
      reason: String(w.reason),
      owner: String(w.owner),
      expires,
      location,
    };
    if (w.item !== undefined) ref.item = String(w.item);
    if (Array.isArray(w.instances)) {
      ref.instances = w.instances.map(String);
      addProblems(bad, instanceProblems(ref.instances, rules.instances, (at, message) => problemAt(source, ['waivers', i, 'instances', ...at], message)));
    }
    for (const field of GOVERNED_WAIVER_FIELDS) if (w[field] !== undefined) ref[field] = String(w[field]) as never;
    for (const field of rules.require ?? []) {
      if (w[field] === undefined) bad.push({ ...location, message: `waiver ${ref.policy} ${ref.resource}: "${field}" is required (waiverRules.require)` });
    }
    if (ref.created !== undefined && !isCalendarDate(ref.created)) {
      bad.push(problemAt(source, ['waivers', i, 'created'], `created ${ref.created} is not a date (YYYY-MM-DD)`));
    } else if (ref.created !== undefined && ref.created > expires) {
      bad.push(problemAt(source, ['waivers', i, 'created'], `created ${ref.created} is after expires ${expires}`));
    }
    if (!rules.allowCatchAll && isCatchAll(ref)) {
      const message = `resource "${ref.resource}" waives every resource of ${ref.policy}, and waiverRules.allowCatchAll is false: name the resources`;
      bad.push(problemAt(source, ['waivers', i, 'resource'], message));
    }
    return ref;
  });
  if (bad.length > 0) throw new InputError(bad);
  return waivers;
}

/** A waiver's `instances` against the names the config declares (`known`; undefined: not checked). */
function instanceProblems(
  named: readonly string[],
  known: readonly string[] | null | undefined,
  at: (path: number[], message: string) => InputProblem,
): InputProblem[] {
  if (known === undefined) return [];
  if (known === null) return [at([], 'instances: the config declares no instances:, so there is no instance to name (leave it out)')];
  return named.flatMap((name, j) => (known.includes(name) ? [] : [at([j], `instances: no instance "${name}" in the config's instances: (${known.join(', ')})${didYouMean(name, known)}`)]));
}

/** Whether the waiver applies on the instance named `instance` (a waiver naming none applies on every one). */
export function appliesOn(w: Pick<WaiverRef, 'instances'>, instance: string): boolean {
  return w.instances === undefined || w.instances.includes(instance);
}

export { globMatches } from '../core/glob.js';

export async function loadWaivers(file: string, displayPath: string, rules?: WaiverRules): Promise<WaiverRef[]> {
  return parseWaivers(readInputFileSync(file, displayPath, 'waivers'), displayPath, rules);
}

/**
 * The time zone whose calendar day a waiver's `expires` is compared with. DESIGN §7 says only
 * "from that day on"; UTC makes a run give the same answer on every CI runner.
 */
export const WAIVER_EXPIRY_TIME_ZONE = 'UTC' as const;

/**
 * Today as YYYY-MM-DD in WAIVER_EXPIRY_TIME_ZONE: the date of an ISO timestamp, which is UTC's
 * (a DateTimeFormat would load ICU's data: ~9 ms of a start that has waivers).
 */
export function today(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** From its `expires` day on, a waiver no longer applies. */
export function isExpired(w: WaiverRef, now: Date): boolean {
  return w.expires <= today(now);
}

export function waiverMatches(w: WaiverRef, f: Finding): boolean {
  return w.policy === f.policy && globMatches(w.resource, f.resource.id) && itemMatches(w, f);
}

/** A waiver without `item` covers every item of the resource; one with it, that item alone. */
const itemMatches = (w: WaiverRef, f: Finding): boolean => w.item === undefined || (f.item ?? null) === w.item;

export interface WaiverOutcome {
  findings: Finding[];
  expired: WaiverRef[];
  stale: WaiverRef[];
  /** Active waivers of resource `*` (warned about in every report). */
  catchAll: WaiverRef[];
  active: WaiverRef[];
  /** Active waivers ending within `warningDays`. */
  expiring: WaiverRef[];
}

/** Whether the waiver ends within `days` days of `now` (and has not ended yet). */
export function isExpiring(w: WaiverRef, now: Date, days: number): boolean {
  const last = new Date(`${today(now)}T00:00:00Z`);
  last.setUTCDate(last.getUTCDate() + days);
  // Stryker disable next-line MethodExpression: a YYYY-MM-DD orders the same against that day's whole ISO time
  return !isExpired(w, now) && w.expires <= last.toISOString().slice(0, 10);
}

/**
 * The first of `waivers` in file order that matches a finding (waiverMatches), looked up rather
 * than searched: a waiver naming one id is found by its policy and that id, and the policy's
 * globbed waivers are tried in order beside it. Trying every waiver on every violation was
 * quadratic: the 10,052 waivers `steward waive` wrote for a report's 10,052 violations took the
 * next check from 0.9 to 14 s.
 */
function firstMatchingWaiver(waivers: readonly WaiverRef[]): (f: Finding) => WaiverRef | undefined {
  const byPolicy = new Map<string, { named: Map<string, number[]>; globbed: number[] }>();
  waivers.forEach((w, i) => {
    const of = byPolicy.get(w.policy) ?? byPolicy.set(w.policy, { named: new Map(), globbed: [] }).get(w.policy)!;
    const id = literalOf(w.resource);
    if (id === null) of.globbed.push(i);
    else (of.named.get(id) ?? of.named.set(id, []).get(id)!).push(i);
  });
  return (f) => {
    const of = byPolicy.get(f.policy);
    if (!of) return undefined;
    // Both lists are in file order: the first named match, unless a globbed one comes before it.
    // A named one has the finding's policy and id already (its glob, compiled, would say so too).
    let first = of.named.get(f.resource.id)?.find((i) => itemMatches(waivers[i]!, f)) ?? Number.POSITIVE_INFINITY;
    for (const i of of.globbed) {
      if (i > first) break;
      if (waiverMatches(waivers[i]!, f)) {
        first = i;
        break;
      }
    }
    return waivers[first];
  };
}

/** Marks matched violations `waived` (errors are never waived: a gate fails closed). */
export function applyWaivers(findings: Finding[], waivers: WaiverRef[], now: Date, warningDays = WAIVER_WARNING_DAYS_DEFAULT): WaiverOutcome {
  const active = waivers.filter((w) => !isExpired(w, now));
  const expired = waivers.filter((w) => isExpired(w, now));
  const used = new Set<WaiverRef>();
  const waiverOf = firstMatchingWaiver(active);
  const out = findings.map((f) => {
    if (f.status !== 'violation') return f;
    const w = waiverOf(f);
    if (!w) return f;
    used.add(w);
    return { ...f, status: 'waived' as const, waiver: w };
  });
  return {
    findings: out,
    expired,
    stale: active.filter((w) => !used.has(w)),
    catchAll: active.filter(isCatchAll),
    active,
    expiring: active.filter((w) => isExpiring(w, now, warningDays)),
  };
}
