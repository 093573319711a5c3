// ajv errors about a YAML file → one readable InputProblem per real mistake, at the offending
// node: an unknown key at the key, anything else at the value (or the map missing a key).
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { InputProblem } from '../core/problem.js';
import { keyLocationAt, locationAt, pathLabel, pointerPath, remembered, type YamlPath, type YamlSource } from './yaml-source.js';

/** Where an error is, as its message names it. */
export interface ErrorPlace {
  path: YamlPath;
  /** `scope.datasets[1]` ('' for the root). */
  label: string;
  /** What a message about the value starts with: `failOn ` (or `severity: `), `the file ` at the root. */
  subject: string;
}

/** How one kind of file words its problems, where it differs from the shared wording. */
export interface SchemaWording {
  /** The label of a path (default: pathLabel). */
  label?(path: YamlPath): string;
  /** Between a label and what is wrong with it (default ' ': `failOn must be…`). */
  separator?: string;
  /** This file's own message for an error, or undefined for the shared one. */
  describe?(error: ErrorObject, place: ErrorPlace): string | undefined;
  /** The schema's `definitions`, where a choice's branches are `$ref`s to them (their errors belong to the choice). */
  definitions?: Readonly<Record<string, unknown>>;
}

/**
 * The errors of `data`, a YAML file's content, against the schema `validator` gives (made at its
 * first use), or null when it is valid. Valid or not is the file's own answer, kept with its text
 * (`remembered`, `name` naming the schema): a start that recalls it neither loads the validator's
 * chunk nor runs it. `data` is what the file's text alone makes; validators never change it.
 */
export function schemaErrors(source: YamlSource, name: string, validator: () => ValidateFunction, data: unknown): readonly ErrorObject[] | null {
  let errors: readonly ErrorObject[] | null = null;
  const check = (): boolean => {
    const validate = validator();
    const valid = validate(data) as boolean;
    errors = valid ? null : (validate.errors ?? []);
    return valid;
  };
  if (remembered(source, `valid against ${name}`, check)) return null;
  // Recalled as invalid (its errors are not kept): asked again for them.
  if (errors === null) check();
  return errors;
}

/** ajv errors (run with `verbose: true`, for the values and parent schemas) → problems, in ajv's order. */
export function schemaProblems(
  source: YamlSource,
  errors: readonly ErrorObject[] | null | undefined,
  wording: SchemaWording = {},
): InputProblem[] {
  const problems: InputProblem[] = [];
  const seen = new Set<string>();
  for (const e of selectErrors(errors ?? [], wording.definitions ?? {})) {
    const path = pointerPath(e.instancePath);
    const label = (wording.label ?? pathLabel)(path);
    const place = { path, label, subject: `${label || 'the file'}${wording.separator ?? ' '}` };
    const message = wording.describe?.(e, place) ?? sharedMessage(e, place);
    const at = e.keyword === 'additionalProperties' ? keyLocationAt(source, [...path, String(e.params.additionalProperty)]) : locationAt(source, path);
    const problem = { ...at, message };
    const key = `${problem.line}:${problem.column}:${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}

const isChoice = (e: ErrorObject) => e.keyword === 'anyOf' || e.keyword === 'oneOf';
const descriptionOf = (e: ErrorObject) => (e.parentSchema as { description?: string } | undefined)?.description;

/**
 * The errors worth showing, one per real mistake. A value matching no branch of an anyOf/oneOf
 * gets, instead of one error per branch: the errors inside it when it had the right shape for
 * a branch; else "must be <the schema's description>"; else the first branch's error.
 * A failed `if` is left out: its `then` error says what is wrong.
 */
function selectErrors(errors: readonly ErrorObject[], definitions: Readonly<Record<string, unknown>>): ErrorObject[] {
  // A branch error lies under the choice in the schema AND in the data: one schema (say under
  // additionalProperties) checks many values, and their errors must not mix. A branch that is a
  // `$ref` reports paths inside its definition: its errors are known by their schema objects.
  const under = (e: ErrorObject, choice: ErrorObject) => e.instancePath.startsWith(`${choice.instancePath}/`);
  const referred = new Map<ErrorObject, Set<unknown>>();
  const inRefs = (e: ErrorObject, choice: ErrorObject) => {
    let reach = referred.get(choice);
    if (!reach) {
      reach = schemasOfRefs(choice, definitions);
      referred.set(choice, reach);
    }
    return reach.has(e.parentSchema);
  };
  const inside = (e: ErrorObject, choice: ErrorObject) =>
    e !== choice && (e.schemaPath.startsWith(`${choice.schemaPath}/`) || inRefs(e, choice)) && (e.instancePath === choice.instancePath || under(e, choice));
  // An error can be inside a choice only at the choice's value or below it: each error is listed
  // under its value's path and every path above, in ajv's order, and each choice under its own.
  // Every error against every choice was quadratic: 8,000 waivers whose resource was a list took
  // `validate` 59 s.
  const atOrUnder = new Map<string, ErrorObject[]>();
  const choicesAt = new Map<string, ErrorObject[]>();
  const pathsAbove = (pointer: string) => pointer.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'));
  for (const e of errors) {
    for (const p of pathsAbove(e.instancePath)) (atOrUnder.get(p) ?? atOrUnder.set(p, []).get(p)!).push(e);
    if (isChoice(e)) (choicesAt.get(e.instancePath) ?? choicesAt.set(e.instancePath, []).get(e.instancePath)!).push(e);
  }
  const inAChoice = (e: ErrorObject) => pathsAbove(e.instancePath).some((p) => choicesAt.get(p)?.some((c) => inside(e, c)));
  const selected: ErrorObject[] = [];
  for (const e of errors) {
    if (e.keyword === 'if' || inAChoice(e)) continue;
    if (!isChoice(e)) {
      selected.push(e);
      continue;
    }
    const branches = (atOrUnder.get(e.instancePath) ?? []).filter((b) => inside(b, e) && !isChoice(b) && b.keyword !== 'if');
    const deeper = branches.filter((b) => under(b, e));
    if (deeper.length > 0) for (const b of deeper) selected.push(b);
    else selected.push(descriptionOf(e) || branches.length === 0 ? e : branches[0]);
  }
  return selected;
}

/** Every schema object inside the definitions a choice's `$ref` branches name (none without such branches). */
function schemasOfRefs(choice: ErrorObject, definitions: Readonly<Record<string, unknown>>): Set<unknown> {
  const found = new Set<unknown>();
  const walk = (node: unknown) => {
    if (node === null || typeof node !== 'object' || found.has(node)) return;
    found.add(node);
    for (const child of Object.values(node)) walk(child);
  };
  const branches = ((choice.parentSchema as Record<string, unknown> | undefined)?.[choice.keyword] ?? []) as { $ref?: string }[];
  for (const b of branches) {
    const name = b.$ref?.startsWith('#/definitions/') ? b.$ref.slice('#/definitions/'.length) : undefined;
    if (name !== undefined) walk(definitions[name]);
  }
  return found;
}

function sharedMessage(e: ErrorObject, { label, subject }: ErrorPlace): string {
  const inside = label ? ` in ${label}` : '';
  switch (e.keyword) {
    case 'additionalProperties': {
      const allowed = Object.keys((e.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      return `unknown key "${e.params.additionalProperty}"${inside}${allowed.length ? ` (allowed: ${allowed.join(', ')})` : ''}`;
    }
    case 'required':
      return `missing required key "${e.params.missingProperty}"${inside}`;
    case 'enum':
      return `${subject}must be one of: ${(e.params.allowedValues as unknown[]).join(', ')}`;
    case 'const':
      return `${subject}must be ${JSON.stringify(e.params.allowedValue)}`;
    case 'anyOf':
    case 'oneOf':
      return `${subject}${descriptionOf(e) ? `must be ${descriptionOf(e)}` : e.message}`;
    default:
      return `${subject}${e.message ?? e.keyword}`;
  }
}

/** Manifests and waivers also quote the refused value: `type must be one of USER, GROUP (got "ROBOT")`. */
export const QUOTE_REFUSED_VALUE: SchemaWording = {
  describe: (e, { subject }) =>
    e.keyword === 'enum' ? `${subject}must be one of ${(e.params.allowedValues as unknown[]).map(String).join(', ')} (got ${JSON.stringify(e.data)})` : undefined,
};
