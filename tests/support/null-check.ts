// Finds every `null` in an answer and the contract schema that field was declared with.
import { contract, type Schema } from './contract.js';

export interface NullField {
  /** Where in the answer, e.g. `features[0].createdBy.imageUrl`. */
  at: string;
  /** The field as the contract declares it: the component schema it belongs to and its path inside, e.g. `SearchedFeature.createdBy.imageUrl`. */
  field: string;
  /** Whether the contract's schema for the field allows null. */
  allowed: boolean;
}

interface Place {
  schemas: Schema[];
  /** The component schema the field belongs to, and the path inside it. */
  field: string;
}

/** Follows `$ref`s; the field name restarts at each named component schema. */
function expand(schema: Schema | undefined, field: string): Place[] {
  if (!schema || typeof schema !== 'object') return [{ schemas: [{}], field }];
  if (schema.$ref) {
    const name = String(schema.$ref).split('/').pop()!;
    return expand(contract.components.schemas![name], name);
  }
  const places: Place[] = [{ schemas: [schema], field }];
  for (const part of [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) places.push(...expand(part, field));
  return places;
}

const allowsNull = (schema: Schema): boolean =>
  schema.type === undefined && !schema.$ref && !schema.allOf && !schema.oneOf && !schema.anyOf && !schema.const && !schema.enum
    ? true // an untyped schema (`{}`) allows anything
    : schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null')) || (Array.isArray(schema.enum) && schema.enum.includes(null));

/** Every null in `value`, walked alongside `schema` (a contract schema, `$ref`s allowed). */
export function nullsIn(value: unknown, schema: Schema, at = '', field = ''): NullField[] {
  const places = expand(schema, field);
  if (value === null) {
    const named = places.find((p) => p.field !== '')?.field ?? field;
    return [{ at, field: named, allowed: places.some((p) => p.schemas.some(allowsNull)) }];
  }
  if (Array.isArray(value)) {
    return value.flatMap((item, i) => places.flatMap((p) => p.schemas.filter((s) => s.items).flatMap((s) => nullsIn(item, s.items, `${at}[${i}]`, p.field))));
  }
  if (typeof value !== 'object' || value === undefined) return [];
  const found: NullField[] = [];
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const declared = places.flatMap((p) =>
      p.schemas.flatMap((s) => {
        const property = s.properties?.[key] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined);
        return property ? [{ property, field: `${p.field}.${key}` }] : [];
      }),
    );
    const where = at ? `${at}.${key}` : key;
    if (declared.length === 0) {
      if (item === null) found.push({ at: where, field: `${field}.${key}`, allowed: false });
      continue;
    }
    // Several branches (oneOf, allOf) may declare the key: a null is allowed when one of them allows it.
    const results = declared.map(({ property, field: f }) => nullsIn(item, property, where, f));
    const byPlace = new Map<string, NullField>();
    for (const list of results) {
      for (const entry of list) {
        const seen = byPlace.get(entry.at);
        byPlace.set(entry.at, seen ? { ...seen, allowed: seen.allowed || entry.allowed } : entry);
      }
    }
    found.push(...byPlace.values());
  }
  return found;
}

/** The schema of an operation's 200 answer, from the contract. */
export function okSchemaOf(path: string, method: string): Schema {
  const operation = contract.paths[path]?.[method] as unknown as { responses: Record<string, { content?: Record<string, { schema: Schema }> }> };
  const schema = operation?.responses['200']?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`the contract has no JSON 200 answer for ${method.toUpperCase()} ${path}`);
  return schema;
}

/** The contract's schema of one field named as `Component.path.inside` (through `$ref`s, allOf and items). */
export function fieldSchema(field: string): Schema | undefined {
  const [component, ...keys] = field.split('.');
  let places = expand({ $ref: `#/components/schemas/${component}` }, '');
  for (const key of keys) {
    const next = places.flatMap((p) => p.schemas.flatMap((s) => [s, ...(s.items ? [s.items] : [])])).map((s) => s.properties?.[key]).filter(Boolean);
    if (next.length === 0) return undefined;
    places = next.flatMap((s) => expand(s, ''));
    if (key === keys.at(-1)) return next[0];
  }
  return places[0]?.schemas[0];
}

export { allowsNull };
