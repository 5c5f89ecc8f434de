// What each event type means (x-event-meaning on the contract's EventType), checked and turned into generated/events.ts.
// A type the enum lists without a meaning, or a meaning for a type the enum lacks, fails `npm run generate`.

/** What SDKs receive after an event: its flag read again, everything read again, or nothing new. */
export const sdkImpacts = ['flag', 'all', 'none'] as const;
/** The integration providers (domain/integrations/providers.ts) an event type may be offered by. */
export const integrationProviders = ['webhook', 'slack', 'teams', 'datadog'] as const;

type SdkImpact = (typeof sdkImpacts)[number];
type IntegrationProvider = (typeof integrationProviders)[number];

export interface EventMeaning {
  sdk: SdkImpact;
  integrations: IntegrationProvider[];
  /** A schema of the contract the payload matches, `object` (an object no schema describes) or null (none is recorded). */
  data: string | null;
  preData: string | null;
}

/** The meaning of every event type, in the enum's order; throws naming the first type or field that is wrong. */
export function eventMeaningTable(contract: any): Record<string, EventMeaning> {
  const eventType = contract.components?.schemas?.EventType;
  const types: string[] = eventType?.enum ?? [];
  const declared: Record<string, any> = eventType?.['x-event-meaning'] ?? {};
  const schemas = new Set(Object.keys(contract.components?.schemas ?? {}));
  const unknown = Object.keys(declared).find((type) => !types.includes(type));
  if (unknown) throw new Error(`x-event-meaning names ${unknown}, which is not in the EventType enum`);
  const table: Record<string, EventMeaning> = {};
  for (const type of types) {
    const meaning = declared[type];
    const where = `EventType ${type}`;
    if (meaning === undefined) {
      throw new Error(`${where} has no x-event-meaning: say what it changes for SDKs (sdk), which integrations offer it, and its data and preData`);
    }
    if (!sdkImpacts.includes(meaning.sdk)) throw new Error(`${where}: x-event-meaning sdk must be one of ${sdkImpacts.join(', ')}`);
    const integrations = meaning.integrations;
    if (!Array.isArray(integrations) || integrations.some((name) => !integrationProviders.includes(name))) {
      throw new Error(`${where}: x-event-meaning integrations must list providers among ${integrationProviders.join(', ')}`);
    }
    for (const field of ['data', 'preData'] as const) {
      const payload = meaning[field];
      if (payload !== null && payload !== 'object' && !schemas.has(payload)) {
        throw new Error(`${where}: x-event-meaning ${field} must be a schema of the contract, object or null, not ${JSON.stringify(payload)}`);
      }
    }
    table[type] = { sdk: meaning.sdk, integrations, data: meaning.data, preData: meaning.preData };
  }
  return table;
}

const list = (values: readonly string[]) => `[${values.map((value) => `'${value}'`).join(', ')}]`;

export function eventsModule(header: string, table: Record<string, EventMeaning>): string {
  const types = Object.keys(table);
  const rows = types.map((type) => `  '${type}': ${JSON.stringify(table[type])},`).join('\n');
  const withImpact = (sdk: SdkImpact) => types.filter((type) => table[type]!.sdk === sdk);
  const offered = integrationProviders.map((provider) => `  ${provider}: ${list(types.filter((type) => table[type]!.integrations.includes(provider)))},`);
  return `${header}
import type { components } from './api.js';

type EventType = components['schemas']['EventType'];
type PayloadSchema = keyof components['schemas'] | 'object';

export type IntegrationProvider = ${integrationProviders.map((name) => `'${name}'`).join(' | ')};

/** What an event type means (x-event-meaning in the contract). */
export interface EventMeaning {
  /** What SDKs receive after it (snapshot, delta, stream): \`flag\`, its flag read again; \`all\`, everything; \`none\`, nothing new. */
  sdk: ${sdkImpacts.map((impact) => `'${impact}'`).join(' | ')};
  /** The integration providers that offer it to subscribe to. */
  integrations: readonly IntegrationProvider[];
  /** The schema its data matches, \`object\` when no schema of the contract describes it, null when it has none. */
  data: PayloadSchema | null;
  preData: PayloadSchema | null;
}

export const eventMeaning: Record<EventType, EventMeaning> = {
${rows}
};

/** The event types after which SDKs receive everything anew (x-event-meaning sdk: all). */
export const sdkWideEventTypes: ReadonlySet<EventType> = new Set(${list(withImpact('all'))});

/** The event types after which SDKs receive their flag anew (x-event-meaning sdk: flag). */
export const sdkFlagEventTypes: ReadonlySet<EventType> = new Set(${list(withImpact('flag'))});

/** Per provider, the event types it offers, in the contract's order. */
export const eventTypesOffered: Record<IntegrationProvider, readonly EventType[]> = {
${offered.join('\n')}
};
`;
}
