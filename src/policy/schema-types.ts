// Static types of JSON values as CEL sees them, read from JSON Schemas (the resource kinds'
// document schemas) and from values (parameter defaults). Whole JSON numbers are CEL ints.

export type Kind =
  | 'int'
  | 'uint'
  | 'double'
  | 'string'
  | 'bool'
  | 'bytes'
  | 'null'
  | 'list'
  | 'map'
  | 'timestamp'
  | 'duration'
  | 'type';

export type Schema = Record<string, unknown>;

/** A static type: the kinds a value may have (null = dyn, anything), with what its parts are. */
export interface CelType {
  kinds: ReadonlySet<Kind> | null;
  /** JSON Schema the value is described by (fields and items of the resource document). */
  schema?: Schema;
  /** Element type of a list. */
  elem?: CelType;
  /** Field types of a map whose fields are known (params). */
  fields?: Record<string, CelType>;
}

export const DYN: CelType = { kinds: null };
export const of = (...kinds: Kind[]): CelType => ({ kinds: new Set(kinds) });

function isObject(v: unknown): v is Schema {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function kindOfValue(v: unknown): Kind {
  if (v === null) return 'null';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'double';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  return Array.isArray(v) ? 'list' : 'map';
}

const SCHEMA_TYPES: Record<string, Kind[]> = {
  string: ['string'],
  integer: ['int'],
  number: ['int', 'double'],
  boolean: ['bool'],
  array: ['list'],
  object: ['map'],
  null: ['null'],
};

/** The kinds a JSON Schema allows, when it says (type, const, enum, anyOf/oneOf); null otherwise. */
function schemaKinds(s: Schema): Set<Kind> | null {
  if (typeof s.type === 'string' || Array.isArray(s.type)) {
    const names = ([] as unknown[]).concat(s.type);
    if (!names.every((n) => typeof n === 'string' && n in SCHEMA_TYPES)) return null;
    return new Set(names.flatMap((n) => SCHEMA_TYPES[n as string]));
  }
  if ('const' in s) return new Set([kindOfValue(s.const)]);
  if (Array.isArray(s.enum)) return new Set(s.enum.map(kindOfValue));
  const branches = s.anyOf ?? s.oneOf;
  if (Array.isArray(branches) && branches.length > 0) {
    const all = new Set<Kind>();
    for (const b of branches) {
      const kinds = isObject(b) ? schemaKinds(b) : null;
      if (kinds === null) return null;
      for (const k of kinds) all.add(k);
    }
    return all;
  }
  return null;
}

export function fromSchema(s: unknown): CelType {
  if (!isObject(s)) return DYN;
  return { kinds: schemaKinds(s), schema: s };
}

/** The subschema at `key` of `s` (`properties`, `items`), looking into anyOf/oneOf branches. */
function subschema(s: Schema | undefined, pick: (s: Schema) => unknown): unknown {
  if (!s) return undefined;
  const direct = pick(s);
  if (direct !== undefined) return direct;
  const branches = s.anyOf ?? s.oneOf;
  if (!Array.isArray(branches)) return undefined;
  for (const b of branches) {
    const found = isObject(b) ? pick(b) : undefined;
    if (found !== undefined) return found;
  }
  return undefined;
}

export function fieldOf(t: CelType, field: string): CelType {
  if (t.fields?.[field]) return t.fields[field];
  return fromSchema(
    subschema(t.schema, (s) => {
      const props = isObject(s.properties) ? s.properties : {};
      return field in props ? props[field] : isObject(s.additionalProperties) ? s.additionalProperties : undefined;
    }),
  );
}

export function elemOf(t: CelType): CelType {
  if (t.elem) return t.elem;
  return fromSchema(subschema(t.schema, (s) => (isObject(s.items) ? s.items : undefined)));
}

/** A parameter has the JSON type of its default; a whole-number default may be overridden by any number. */
export function paramType(v: unknown): CelType {
  if (v === null || v === undefined) return DYN;
  const kind = kindOfValue(v);
  return kind === 'int' || kind === 'double' ? of('int', 'double') : of(kind);
}
