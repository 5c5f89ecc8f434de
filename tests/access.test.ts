import { randomBytes } from 'node:crypto';
import { request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { operationTable } from '../generated/operations.js';
import * as t from '../db/schema.js';
import { hashSecret } from '../domain/access/tokens.js';
import { call, expectError, startTestApp, type RawResponse, type TestApp } from './support/app.js';
import { contract, flatten, resolve, validatorOf, type Schema } from './support/contract.js';
import { newApiToken } from './support/fixtures.js';
import { isClientOperation, isFrontendOperation, isSdkOperation } from './support/operations.js';

/** A plausible value for a schema: required fields only (all fields when none is required). */
function example(input: Schema): unknown {
  const schema = flatten(input);
  if (schema.oneOf) return example(schema.oneOf[0]);
  if ('const' in schema) return schema.const;
  if (schema.enum) return schema.enum[0];
  const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type ?? (schema.items ? 'array' : 'object')];
  const type = types.find((x) => x !== 'null') ?? 'null';
  switch (type) {
    case 'object': {
      const properties: Record<string, Schema> = schema.properties ?? {};
      const names: string[] = schema.required?.length ? schema.required : Object.keys(properties);
      const value = Object.fromEntries(names.map((name) => [name, example(properties[name] ?? { type: 'string' })]));
      if (Object.keys(value).length < (schema.minProperties ?? 0) && typeof schema.additionalProperties === 'object') {
        value.x1 = example(schema.additionalProperties);
      }
      return value;
    }
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => example(schema.items ?? { type: 'string' }));
    case 'integer':
    case 'number':
      return Math.max(1, schema.minimum ?? 1);
    case 'boolean':
      return false;
    case 'null':
      return null;
    default: {
      if (schema.format === 'date-time') return new Date(Date.UTC(2099, 0, 1)).toISOString();
      if (schema.format === 'uri') return 'https://x1.example.com/';
      if (!schema.pattern) return 'x1';
      const pattern = new RegExp(schema.pattern);
      const fitting = ['x1', 'x-1', '#000000', 'x1x1', 'x1@example.com'].find((candidate) => pattern.test(candidate));
      if (fitting !== undefined) return fitting;
      if (types.includes('null')) return null;
      throw new Error(`no example for the pattern ${schema.pattern}`);
    }
  }
}

const UNKNOWN_FIELD = 'surelyNotAField';

/** The example with an unknown field where the schema forbids one (in the first item of an array), or undefined. */
function withUnknownField(input: Schema, value: unknown): unknown {
  const schema = flatten(input);
  if (Array.isArray(value) && schema.items) {
    const first = withUnknownField(schema.items, value[0]);
    return first === undefined ? undefined : [first, ...value.slice(1)];
  }
  if (value && typeof value === 'object' && schema.additionalProperties === false) return { ...value, [UNKNOWN_FIELD]: 1 };
  return undefined;
}


interface Operation {
  id: string;
  method: string;
  path: string;
  /** The path with every parameter filled in with a plausible value. */
  url: string;
  bodySchema?: Schema;
  body?: unknown;
  /** The body with an unknown field, when the body's schema forbids unknown fields. */
  bodyWithUnknownField?: unknown;
  /** A JSON body of the wrong type: an array for an object, an object for an array. */
  wrongTypeBody?: string;
}

// Every operation, its path and body built from the contract at run time: the tables below send them with the raw call().
const operations: Operation[] = Object.entries(operationTable).map(([id, op]) => {
  const pathItem = contract.paths[op.path];
  const operation = pathItem?.[op.method.toLowerCase()];
  const parameters = [...(pathItem?.parameters ?? []), ...(operation?.parameters ?? [])].map(resolve);
  const url = op.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const parameter = parameters.find((p) => p.in === 'path' && p.name === name);
    return encodeURIComponent(String(parameter?.schema ? example(parameter.schema) : 'x1'));
  });
  const bodySchema = operation?.requestBody?.content?.['application/json']?.schema;
  if (!bodySchema) return { id, method: op.method, path: op.path, url };
  const body = example(bodySchema);
  return {
    id,
    method: op.method,
    path: op.path,
    url,
    bodySchema,
    body,
    bodyWithUnknownField: withUnknownField(bodySchema, body),
    wrongTypeBody: Array.isArray(body) ? '{}' : '[]',
  };
});
const adminOperations = operations.filter((op) => !operationTable[op.id as keyof typeof operationTable].public && op.path.startsWith('/api/admin'));
const bodyOperations = operations.filter((op) => op.bodySchema);
const unknownFieldOperations = bodyOperations.filter((op) => op.bodyWithUnknownField !== undefined);
const isPublic = (op: Operation) => operationTable[op.id as keyof typeof operationTable].public;
/** Operations with a body that need a credential: public ones (login, signup) have no 401 or 403 to check. */
const protectedBodyOperations = bodyOperations.filter((op) => !isPublic(op));
const protectedUnknownFieldOperations = unknownFieldOperations.filter((op) => !isPublic(op));

const clientOperations = operations.filter((op) => op.path.startsWith('/api/client'));

const frontendOperations = operations.filter((op) => op.path === '/api/frontend' || op.path.startsWith('/api/frontend/'));
/** The credential an operation's own callers use: a frontend token for the frontend API, the admin token elsewhere. */
const allowed = (op: Operation) => (isFrontendOperation(op) ? { token: frontendToken } : {});

const isEventStream = (op: Operation) => operationTable[op.id as keyof typeof operationTable].eventStream;

/** Opens an event stream and closes it once its headers came: the answer of a stream never ends by itself. */
async function streamOpened(op: Operation, token: string): Promise<RawResponse> {
  const response = await request(`${app.url}${op.url}`, { method: op.method as 'GET', headers: { authorization: token } });
  response.body.destroy();
  return { status: response.statusCode, headers: response.headers, text: '', json: undefined };
}

/**
 * A valid credential that lacks the operation's permission: a frontend token on the client API, the admin token on
 * OpenFeature's (which SDK tokens of both kinds may call), a client token elsewhere.
 */
const deniedToken = (op: Operation) => (isClientOperation(op) ? frontendToken : isSdkOperation(op) ? app.adminToken : clientToken);

/** The operation's valid-looking JSON body when it takes one. */
const withBody = (op: Operation) => (op.bodySchema ? { body: op.body as object } : {});

function expectBelow500(response: RawResponse) {
  expect(response.status, response.text).toBeLessThan(500);
}

let app: TestApp;
let clientToken: string;
let frontendToken: string;
const unknownToken = `*:*.${randomBytes(28).toString('hex')}`;

beforeAll(async () => {
  app = await startTestApp();
  clientToken = await newApiToken(app, { type: 'client', environment: 'development' });
  frontendToken = await newApiToken(app, { type: 'frontend', environment: 'development' });
});

describe('the operation table', () => {
  it('has admin operations and operations with a request body to check', () => {
    expect(adminOperations.length).toBeGreaterThanOrEqual(14);
    expect(bodyOperations.map((op) => op.id)).toEqual(expect.arrayContaining(['createApiToken', 'createTag', 'createTagType', 'updateTagType']));
    expect(unknownFieldOperations.map((op) => op.id)).toEqual(expect.arrayContaining(['createApiToken', 'createTag', 'createTagType', 'updateTagType']));
    for (const op of operations) expect(contract.paths[op.path]?.[op.method.toLowerCase()], op.id).toBeDefined();
  });

  it.each(bodyOperations)('builds a body for $id that the contract accepts, and refuses with an unknown field or of the wrong type', (op) => {
    const validate = validatorOf(op.bodySchema!);
    expect(validate(op.body), JSON.stringify(validate.errors)).toBe(true);
    if (op.bodyWithUnknownField !== undefined) expect(validate(op.bodyWithUnknownField)).toBe(false);
    expect(validate(JSON.parse(op.wrongTypeBody!))).toBe(false);
  });
});

describe('authentication and permission on every admin operation', () => {
  it.each(adminOperations)('$method $path ($id): no Authorization header → 401', async (op) => {
    const response = await call(app, op.method, op.url, { token: null, ...withBody(op) });
    expectError(response, 401, 'AuthenticationRequired');
  });

  it.each(adminOperations)('$method $path ($id): an unknown token → 401', async (op) => {
    const response = await call(app, op.method, op.url, { token: unknownToken, ...withBody(op) });
    expectError(response, 401, 'AuthenticationRequired');
  });

  it.each(adminOperations)('$method $path ($id): an unknown token with a Bearer prefix → 401', async (op) => {
    const response = await call(app, op.method, op.url, { token: `Bearer ${unknownToken}`, ...withBody(op) });
    expectError(response, 401, 'AuthenticationRequired');
  });

  it.each(adminOperations)('$method $path ($id): a client token → 403', async (op) => {
    const response = await call(app, op.method, op.url, { token: clientToken, ...withBody(op) });
    expectError(response, 403, 'NoAccessError');
  });

  it.each(adminOperations)('$method $path ($id): a client token with a Bearer prefix → 403', async (op) => {
    const response = await call(app, op.method, op.url, { token: `Bearer ${clientToken}`, ...withBody(op) });
    expectError(response, 403, 'NoAccessError');
  });

  it.each(adminOperations)('$method $path ($id): a frontend token → 403', async (op) => {
    const response = await call(app, op.method, op.url, { token: frontendToken, ...withBody(op) });
    expectError(response, 403, 'NoAccessError');
  });

  it.each(adminOperations)('$method $path ($id): the admin token gets past authentication and permission', async (op) => {
    const response = await call(app, op.method, op.url, withBody(op));
    expectBelow500(response);
    expect(response.status).not.toBe(401);
    expect(response.status).not.toBe(403);
  });
});

describe('authentication and permission on every client API operation', () => {
  it('has the client operations to check', () => {
    expect(clientOperations.map((op) => op.id)).toEqual(expect.arrayContaining(['getClientFeatures', 'registerClient', 'reportClientMetrics']));
  });

  it.each(clientOperations)('$method $path ($id): no Authorization header → 401', async (op) => {
    const response = await call(app, op.method, op.url, { token: null, ...withBody(op) });
    expectError(response, 401, 'AuthenticationRequired');
  });

  it.each(clientOperations)('$method $path ($id): an unknown token → 401', async (op) => {
    const response = await call(app, op.method, op.url, { token: unknownToken, ...withBody(op) });
    expectError(response, 401, 'AuthenticationRequired');
  });

  it.each(clientOperations)('$method $path ($id): a frontend token → 403', async (op) => {
    const response = await call(app, op.method, op.url, { token: frontendToken, ...withBody(op) });
    expectError(response, 403, 'NoAccessError');
  });

  it.each(clientOperations)('$method $path ($id): a client token gets past authentication and permission', async (op) => {
    const response = isEventStream(op) ? await streamOpened(op, clientToken) : await call(app, op.method, op.url, { token: clientToken, ...withBody(op) });
    expectBelow500(response);
    expect(response.status).not.toBe(401);
    expect(response.status).not.toBe(403);
  });
});

describe('authentication and permission on every frontend API operation', () => {
  it('has the frontend operations to check, each for frontend tokens only', () => {
    expect(frontendOperations.map((op) => op.id)).toEqual(
      expect.arrayContaining(['getFrontendFeatures', 'getFrontendFeaturesWithPost', 'getFrontendFeature', 'reportFrontendMetrics', 'registerFrontendClient']),
    );
    expect(frontendOperations.filter((op) => !isFrontendOperation(op)).map((op) => op.id)).toEqual([]);
  });

  it.each(frontendOperations)('$method $path ($id): no Authorization header → 401', async (op) => {
    expectError(await call(app, op.method, op.url, { token: null, ...withBody(op) }), 401, 'AuthenticationRequired');
  });

  it.each(frontendOperations)('$method $path ($id): an unknown token → 401', async (op) => {
    expectError(await call(app, op.method, op.url, { token: unknownToken, ...withBody(op) }), 401, 'AuthenticationRequired');
  });

  it.each(frontendOperations)('$method $path ($id): a client token → 403', async (op) => {
    expectError(await call(app, op.method, op.url, { token: clientToken, ...withBody(op) }), 403, 'NoAccessError');
  });

  it.each(frontendOperations)('$method $path ($id): the admin token → 403', async (op) => {
    expectError(await call(app, op.method, op.url, withBody(op)), 403, 'NoAccessError');
  });

  it.each(frontendOperations)('$method $path ($id): a frontend token gets past authentication and permission', async (op) => {
    const response = await call(app, op.method, op.url, { token: frontendToken, ...withBody(op) });
    expectBelow500(response);
    expect(response.status).not.toBe(401);
    expect(response.status).not.toBe(403);
  });
});

describe('request bodies on every operation that takes one', () => {
  it.each(bodyOperations.flatMap((op) => ['text/plain', 'application/xml'].map((contentType) => ({ ...op, contentType }))))(
    '$method $path ($id): a $contentType body with a token that may call it → 415',
    async (op) => {
      const response = await call(app, op.method, op.url, { ...allowed(op), body: JSON.stringify(op.body), contentType: op.contentType });
      expectError(response, 415, 'ContentTypeerror');
    },
  );

  it.each(protectedBodyOperations)('$method $path ($id): a token lacking the permission, with a text/plain body → 403, not 415', async (op) => {
    const response = await call(app, op.method, op.url, { token: deniedToken(op), body: JSON.stringify(op.body), contentType: 'text/plain' });
    expectError(response, 403, 'NoAccessError');
  });

  it.each(protectedBodyOperations)('$method $path ($id): no credential with a text/plain body → 401, not 415', async (op) => {
    const response = await call(app, op.method, op.url, { token: null, body: JSON.stringify(op.body), contentType: 'text/plain' });
    expectError(response, 401, 'AuthenticationRequired');
  });

  it.each(protectedUnknownFieldOperations)('$method $path ($id): a token lacking the permission, with an unknown field → 403, not 400', async (op) => {
    const response = await call(app, op.method, op.url, { token: deniedToken(op), body: op.bodyWithUnknownField as object });
    expectError(response, 403, 'NoAccessError');
  });

  it.each(protectedBodyOperations)('$method $path ($id): a token lacking the permission, with a body of the wrong type → 403, not 400', async (op) => {
    const response = await call(app, op.method, op.url, { token: deniedToken(op), body: op.wrongTypeBody! });
    expectError(response, 403, 'NoAccessError');
  });

  it.each(protectedBodyOperations)('$method $path ($id): a token lacking the permission, with malformed JSON → 403, not 400', async (op) => {
    const response = await call(app, op.method, op.url, { token: deniedToken(op), body: '{"name": ' });
    expectError(response, 403, 'NoAccessError');
  });

  it.each(protectedBodyOperations)('$method $path ($id): no credential with malformed JSON → 401, not 400', async (op) => {
    const response = await call(app, op.method, op.url, { token: null, body: '{"name": ' });
    expectError(response, 401, 'AuthenticationRequired');
  });

  it.each(unknownFieldOperations)('$method $path ($id): a JSON body with an unknown field → 400 naming the field', async (op) => {
    const response = await call(app, op.method, op.url, { ...allowed(op), body: op.bodyWithUnknownField as object });
    const error = expectError(response, 400, 'ValidationError');
    expect(error.message).toContain(UNKNOWN_FIELD);
  });

  it.each(unknownFieldOperations)('$method $path ($id): the same field with a charset parameter → 400, not 415', async (op) => {
    const response = await call(app, op.method, op.url, {
      ...allowed(op),
      body: op.bodyWithUnknownField as object,
      contentType: 'application/json; charset=utf-8',
    });
    expectError(response, 400, 'ValidationError');
  });

  it.each(bodyOperations)('$method $path ($id): no body at all → 400', async (op) => {
    const response = await call(app, op.method, op.url, allowed(op));
    expectError(response, 400, 'ValidationError');
  });

  it.each(bodyOperations)('$method $path ($id): an empty application/json body → 400', async (op) => {
    const response = await call(app, op.method, op.url, { ...allowed(op), body: '' });
    expectError(response, 400, 'ValidationError');
  });

  it.each(bodyOperations)('$method $path ($id): malformed JSON → 400', async (op) => {
    const response = await call(app, op.method, op.url, { ...allowed(op), body: '{"name": ' });
    expectError(response, 400, 'ValidationError');
  });

  it.each(bodyOperations)('$method $path ($id): a JSON body of the wrong type → 400', async (op) => {
    const response = await call(app, op.method, op.url, { ...allowed(op), body: op.wrongTypeBody! });
    expectError(response, 400, 'ValidationError');
  });
});

/** The body with U+0000 inside its first string, or undefined when it has no string. */
function withNul(value: unknown): unknown {
  if (typeof value === 'string') return `${value}\u0000`;
  if (Array.isArray(value)) {
    const index = value.findIndex((item) => withNul(item) !== undefined);
    return index < 0 ? undefined : value.map((item, i) => (i === index ? withNul(item) : item));
  }
  if (value && typeof value === 'object') {
    const key = Object.keys(value).find((name) => withNul((value as Record<string, unknown>)[name]) !== undefined);
    return key === undefined ? undefined : { ...value, [key]: withNul((value as Record<string, unknown>)[key]) };
  }
  return undefined;
}

const nulBodyOperations = bodyOperations.filter((op) => withNul(op.body) !== undefined).map((op) => ({ ...op, nulBody: withNul(op.body) as object }));

describe('text PostgreSQL cannot store', () => {
  it('has operations whose body carries text', () => {
    expect(nulBodyOperations.map((op) => op.id)).toEqual(expect.arrayContaining(['createTagType', 'createProject', 'createFeature']));
  });

  it.each(nulBodyOperations)('$method $path ($id): a NUL character in a body string → 400', async (op) => {
    const error = expectError(await call(app, op.method, op.url, { ...allowed(op), body: op.nulBody }), 400, 'ValidationError');
    expect(error.message).toContain('NUL');
  });

  it('answers 400 for a NUL character in a path parameter or a query value', async () => {
    expect(expectError(await call(app, 'GET', '/api/admin/projects/a%00b'), 400, 'ValidationError').message).toContain('NUL');
    expect(expectError(await call(app, 'GET', '/api/admin/search/features?query=a%00b'), 400, 'ValidationError').message).toContain('NUL');
  });
});

describe('credentials', () => {
  it('accepts `Bearer <token>` like `<token>`', async () => {
    const plain = await app.admin.GET('/api/admin/tag-types');
    const bearer = await app.clientWith(`Bearer ${app.adminToken}`).GET('/api/admin/tag-types');
    expect(plain.response.status).toBe(200);
    expect(bearer.response.status).toBe(200);
    expect(bearer.data).toEqual(plain.data);
  });

  it('refuses an expired token with 401, while the same kind of row unexpired works', async () => {
    const expired = `*:*.${randomBytes(28).toString('hex')}`;
    const valid = `*:*.${randomBytes(28).toString('hex')}`;
    await app.db.insert(t.apiTokens).values([
      { secretHash: hashSecret(expired), tokenName: 'expired', type: 'admin', environment: '*', projects: ['*'], expiresAt: new Date(Date.UTC(2001, 0, 1)) },
      { secretHash: hashSecret(valid), tokenName: 'valid', type: 'admin', environment: '*', projects: ['*'], expiresAt: new Date(Date.UTC(2099, 0, 1)) },
    ]);
    expectError(await app.clientWith(expired).GET('/api/admin/tag-types'), 401, 'AuthenticationRequired');
    expectError(await app.clientWith(`Bearer ${expired}`).GET('/api/admin/tag-types'), 401, 'AuthenticationRequired');
    expect((await app.clientWith(valid).GET('/api/admin/tag-types')).response.status).toBe(200);
  });

  // Raw: fetch would drop the empty header and trim the trailing space.
  it('refuses an empty Authorization header and a bare "Bearer" with 401', async () => {
    expectError(await call(app, 'GET', '/api/admin/tag-types', { token: null, headers: { authorization: '' } }), 401, 'AuthenticationRequired');
    expectError(await call(app, 'GET', '/api/admin/tag-types', { token: 'Bearer ' }), 401, 'AuthenticationRequired');
  });
});

describe('paths outside the operations', () => {
  it('answers an unknown /api path with a 404 Error object', async () => {
    const response = await call(app, 'GET', '/api/admin/no-such-thing');
    const error = expectError(response, 404, 'NotFoundError');
    expect(error.message).toContain('/api/admin/no-such-thing');
    expectError(await call(app, 'POST', '/api/no/such/path', { body: {} }), 404, 'NotFoundError');
  });

  it('serves GET /health without a credential, and with a wrong one', async () => {
    const response = await app.clientWith().GET('/health');
    expect(response.response.status).toBe(200);
    expect(response.data).toEqual({ health: 'GOOD' });
    const withUnknown = await app.clientWith(unknownToken).GET('/health');
    expect(withUnknown.response.status).toBe(200);
    expect(withUnknown.data).toEqual({ health: 'GOOD' });
  });

  // Raw: among the requests are a text/plain body and a path outside the contract.
  it('sends an x-request-id header on successes and on errors', async () => {
    const responses = [
      await call(app, 'GET', '/health', { token: null }),
      await call(app, 'GET', '/api/admin/tag-types'),
      await call(app, 'GET', '/api/admin/tag-types', { token: null }),
      await call(app, 'GET', '/api/admin/tag-types', { token: clientToken }),
      await call(app, 'POST', '/api/admin/tag-types', { body: 'x', contentType: 'text/plain' }),
      await call(app, 'GET', '/api/admin/no-such-thing'),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 401, 403, 415, 404]);
    const ids = responses.map((r) => r.headers['x-request-id']);
    for (const id of ids) {
      expect(typeof id).toBe('string');
      expect((id as string).length).toBeGreaterThan(0);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('AUTH_TYPE none', () => {
  let open: TestApp;
  beforeAll(async () => {
    open = await startTestApp({ authType: 'none' });
  });

  it('serves admin operations without an Authorization header', async () => {
    const anonymous = open.clientWith();
    const list = await anonymous.GET('/api/admin/tag-types');
    expect(list.response.status).toBe(200);
    expect(list.data!.tagTypes.map((type) => type.name)).toContain('simple');
    expect((await anonymous.GET('/api/admin/events')).response.status).toBe(200);
    expect((await anonymous.GET('/api/admin/api-tokens')).response.status).toBe(200);
  });

  it('records createdBy "unknown" on events of writes without a credential', async () => {
    const name = `open-${randomBytes(4).toString('hex')}`;
    const anonymous = open.clientWith();
    const created = await anonymous.POST('/api/admin/tag-types', { body: { name } });
    expect(created.response.status).toBe(201);
    const deleted = await anonymous.DELETE('/api/admin/tag-types/{typeName}', { params: { path: { typeName: name } } });
    expect(deleted.response.status).toBe(200);
    const { events } = (await anonymous.GET('/api/admin/events')).data!;
    const named = (value: unknown) => (value as { name?: string } | null)?.name === name;
    const mine = events.filter((e) => named(e.data) || named(e.preData));
    expect(mine.map((e) => e.type).sort()).toEqual(['tag-type-created', 'tag-type-deleted']);
    for (const event of mine) expect(event.createdBy).toBe('unknown');
  });

  it('still checks the content type and the body', async () => {
    expectError(await call(open, 'POST', '/api/admin/tag-types', { token: null, body: 'name', contentType: 'text/plain' }), 415, 'ContentTypeerror');
    expectError(await call(open, 'POST', '/api/admin/tag-types', { token: null, body: { name: 'okay', [UNKNOWN_FIELD]: 1 } }), 400, 'ValidationError');
  });
});
