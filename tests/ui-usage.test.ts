// The admin UI's usage chart (ui/src/lib/usage.ts): hourly yes/no counts as bars of the last hours.
import { describe, expect, it } from 'vitest';
import { hourlyUsage } from '../ui/src/lib/usage.js';

const now = Date.parse('2026-03-01T12:34:56Z');
const metric = (timestamp: string, yes: number, no: number, environment = 'production', appName = 'web') => ({ environment, appName, timestamp, yes, no, variants: {} });

describe('hourly usage', () => {
  it('has one bar per hour, the last one being the current hour', () => {
    const bars = hourlyUsage([], 'production', 3, now);
    expect(bars.map((b) => new Date(b.hour).toISOString())).toEqual(['2026-03-01T10:00:00.000Z', '2026-03-01T11:00:00.000Z', '2026-03-01T12:00:00.000Z']);
  });

  it('adds up the applications of an hour and leaves hours without reports at zero', () => {
    const bars = hourlyUsage([metric('2026-03-01T12:00:00Z', 5, 1), metric('2026-03-01T12:00:00Z', 2, 3, 'production', 'ios')], 'production', 2, now);
    expect(bars.map(({ yes, no }) => [yes, no])).toEqual([
      [0, 0],
      [7, 4],
    ]);
  });

  it('leaves out other environments and hours before the chart', () => {
    const bars = hourlyUsage([metric('2026-03-01T12:00:00Z', 5, 1, 'development'), metric('2026-02-28T12:00:00Z', 9, 9)], 'production', 24, now);
    expect(bars.every((b) => b.yes === 0 && b.no === 0)).toBe(true);
  });
});
