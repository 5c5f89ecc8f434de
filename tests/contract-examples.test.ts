// The contract is the API's documentation in /docs: every schema says what it is, every request body has an
// example, and every example (request bodies and schemas alike) is valid under the app's own body validator,
// so an example can never drift from the schema it illustrates.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { makeAjv } from '../kernel/validation.js';

type Schema = Record<string, any>;
type Contract = { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, Schema> } };

const contract = parse(readFileSync(new URL('../openapi.yaml', import.meta.url), 'utf8')) as Contract;
const methods = ['get', 'put', 'post', 'delete', 'patch'];

interface Example {
  where: string;
  schema: Schema;
  value: unknown;
}

/** Every named example of every request body, with the schema of its media type. */
function requestBodyExamples(document: Contract): { where: string; media: Schema }[] {
  return Object.entries(document.paths).flatMap(([route, item]) =>
    methods.flatMap((method) =>
      Object.entries<Schema>(item[method]?.requestBody?.content ?? {}).map(([mediaType, media]) => ({
        where: `${item[method].operationId} (${method.toUpperCase()} ${route}, ${mediaType})`,
        media,
      })),
    ),
  );
}

/** Every schema-level `examples` list, in component schemas and the subschemas they contain. */
function schemaExamples(schema: Schema, where: string): Example[] {
  if (schema === null || typeof schema !== 'object') return [];
  const own = Array.isArray(schema.examples) ? schema.examples.map((value: unknown, i: number) => ({ where: `${where} examples[${i}]`, schema, value })) : [];
  const children: [string, Schema][] = [
    ...Object.entries<Schema>(schema.properties ?? {}).map(([name, sub]) => [`${where}.${name}`, sub] as [string, Schema]),
    ...(['items', 'additionalProperties'] as const).filter((k) => typeof schema[k] === 'object').map((k) => [`${where}.${k}`, schema[k]] as [string, Schema]),
    ...(['allOf', 'oneOf', 'anyOf'] as const).flatMap((k) => (schema[k] ?? []).map((sub: Schema, i: number) => [`${where}.${k}[${i}]`, sub] as [string, Schema])),
  ];
  return [...own, ...children.flatMap(([childWhere, sub]) => schemaExamples(sub, childWhere))];
}

/** The examples that do not validate, each with the validator's first complaint. */
function invalidExamples(document: Contract, examples: Example[]): string[] {
  const ajv = makeAjv(false);
  ajv.addSchema({ $id: 'contract', components: document.components });
  // Local references point into the contract document added above.
  const inContract = (schema: Schema) => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"contract#/components/')) as Schema;
  return examples.flatMap(({ where, schema, value }) => {
    const validate = ajv.compile(inContract(schema));
    return validate(value) ? [] : [`${where}: ${ajv.errorsText(validate.errors)}`];
  });
}

function allExamples(document: Contract): Example[] {
  const bodies = requestBodyExamples(document).flatMap(({ where, media }) =>
    Object.entries<Schema>(media.examples ?? {}).map(([name, example]) => ({ where: `${where} example "${name}"`, schema: media.schema, value: example.value })),
  );
  const schemas = Object.entries(document.components.schemas).flatMap(([name, schema]) => schemaExamples(schema, name));
  return [...bodies, ...schemas];
}

describe('the contract as documentation', () => {
  it('describes every schema', () => {
    const undescribed = Object.entries(contract.components.schemas)
      .filter(([, schema]) => typeof schema.description !== 'string' || schema.description.trim() === '')
      .map(([name]) => name);
    expect(undescribed).toEqual([]);
  });

  it('gives every request body at least one named example with a summary and a value', () => {
    const bodies = requestBodyExamples(contract);
    expect(bodies.length).toBeGreaterThan(50);
    const lacking = bodies
      .filter(({ media }) => {
        const examples = Object.values<Schema>(media.examples ?? {});
        return examples.length === 0 || examples.some((e) => typeof e.summary !== 'string' || e.summary === '' || !('value' in e));
      })
      .map(({ where }) => where);
    expect(lacking).toEqual([]);
  });

  it('has only examples that the body validator accepts, request bodies and schemas alike', () => {
    const examples = allExamples(contract);
    expect(examples.some((e) => e.where.includes('(POST'))).toBe(true);
    expect(examples.some((e) => !e.where.includes('('))).toBe(true);
    expect(invalidExamples(contract, examples)).toEqual([]);
  });

  it('keeps each tag\'s paths together, in the order of the top-level tags list', () => {
    const order = (contract as unknown as { tags: { name: string }[] }).tags.map((tag) => tag.name);
    const firstTags = Object.values(contract.paths).map((item) => methods.map((m) => item[m]?.tags?.[0]).find((tag) => tag !== undefined) as string);
    const runs = firstTags.filter((tag, i) => tag !== firstTags[i - 1]);
    expect(runs.filter((tag) => !order.includes(tag))).toEqual([]);
    expect(runs).toEqual(order.filter((tag) => runs.includes(tag)));
  });

  it('would report an example that drifted from its schema', () => {
    const drifted = structuredClone(contract);
    const [body] = requestBodyExamples(drifted).filter(({ media }) => media.examples);
    const [first] = Object.values<Schema>(body!.media.examples);
    first!.value = { ...(first!.value as object), anUndeclaredField: true };
    drifted.components.schemas.NameType = { ...drifted.components.schemas.NameType, examples: ['not/url safe'] };
    const complaints = invalidExamples(drifted, allExamples(drifted));
    expect(complaints).toHaveLength(2);
    expect(complaints[0]).toContain(body!.where);
    expect(complaints[1]).toContain('NameType examples[0]');
  });
});
