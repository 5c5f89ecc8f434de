// `npm run generate` (and its --check) refuses a contract whose event types do not all say what they mean: the check
// the generator runs, on copies of the contract with one thing wrong.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { eventMeaning } from '../generated/events.js';
import { eventMeaningTable } from '../scripts/generate-events.js';

const source = readFileSync(new URL('../openapi.yaml', import.meta.url), 'utf8');
/** A fresh copy of the contract, and its EventType schema to break. */
function contractCopy() {
  const contract = parse(source);
  return { contract, eventType: contract.components.schemas.EventType };
}

describe('the event meaning check', () => {
  it('accepts the contract, and its table is the generated one', () => {
    expect(eventMeaningTable(parse(source))).toEqual(eventMeaning);
  });

  it('refuses an event type of the enum that declares no meaning, naming it', () => {
    const { contract, eventType } = contractCopy();
    delete eventType['x-event-meaning']['segment-updated'];
    expect(() => eventMeaningTable(contract)).toThrow(/EventType segment-updated has no x-event-meaning/);
  });

  it('refuses a new enum value nobody declared a meaning for', () => {
    const { contract, eventType } = contractCopy();
    eventType.enum.push('release-plan-template-archived');
    expect(() => eventMeaningTable(contract)).toThrow(/EventType release-plan-template-archived has no x-event-meaning/);
  });

  it('refuses a meaning for a type the enum lacks', () => {
    const { contract, eventType } = contractCopy();
    eventType['x-event-meaning']['feature-renamed'] = { sdk: 'flag', integrations: [], data: null, preData: null };
    expect(() => eventMeaningTable(contract)).toThrow(/x-event-meaning names feature-renamed, which is not in the EventType enum/);
  });

  it.each([
    ['an unknown SDK impact', { sdk: 'some' }, /segment-created: x-event-meaning sdk must be one of flag, all, none/],
    ['an unknown provider', { integrations: ['pagerduty'] }, /segment-created: x-event-meaning integrations must list providers/],
    ['a payload schema the contract lacks', { data: 'SegmentEvent' }, /segment-created: x-event-meaning data must be a schema of the contract/],
  ])('refuses %s', (_what, wrong, message) => {
    const { contract, eventType } = contractCopy();
    Object.assign(eventType['x-event-meaning']['segment-created'], wrong);
    expect(() => eventMeaningTable(contract)).toThrow(message);
  });
});
