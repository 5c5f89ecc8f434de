// The admin UI's usage view (ui/src/lib/usage.ts): a flag's hourly counts as bars, totals and breakdowns of one
// environment over a period.
import { describe, expect, it } from 'vitest';
import { nowFor, percent, PERIODS, usageOf } from '../ui/src/lib/usage.js';

const now = Date.parse('2026-03-01T12:34:56Z');
const metric = (timestamp: string, yes: number, no: number, environment = 'production', appName = 'web', variants: Record<string, number> = {}) => ({
  environment,
  appName,
  timestamp,
  yes,
  no,
  variants,
});
const hourly = (hours: number) => ({ hours, hoursPerBar: 1 });

describe('usage bars', () => {
  it('has one bar per hour, the last one being the current hour', () => {
    const { bars } = usageOf([], 'production', hourly(3), now);
    expect(bars.map((b) => new Date(b.start).toISOString())).toEqual(['2026-03-01T10:00:00.000Z', '2026-03-01T11:00:00.000Z', '2026-03-01T12:00:00.000Z']);
  });

  it('adds up the applications of an hour and leaves hours without reports at zero', () => {
    const { bars } = usageOf([metric('2026-03-01T12:00:00Z', 5, 1), metric('2026-03-01T12:00:00Z', 2, 3, 'production', 'ios')], 'production', hourly(2), now);
    expect(bars.map(({ yes, no }) => [yes, no])).toEqual([
      [0, 0],
      [7, 4],
    ]);
  });

  it('leaves out other environments and hours before the period', () => {
    const usage = usageOf([metric('2026-03-01T12:00:00Z', 5, 1, 'development'), metric('2026-02-28T12:00:00Z', 9, 9)], 'production', PERIODS['24h'], now);
    expect(usage.bars.every((b) => b.yes === 0 && b.no === 0)).toBe(true);
    expect([usage.yes, usage.no, usage.applications, usage.variants]).toEqual([0, 0, [], []]);
  });

  it('puts several hours in one bar over long periods, the last bar ending with the current hour', () => {
    const { bars } = usageOf([metric('2026-03-01T07:00:00Z', 1, 0), metric('2026-03-01T12:00:00Z', 2, 0), metric('2026-02-22T13:00:00Z', 4, 0)], 'production', PERIODS['7d'], now);
    expect(bars).toHaveLength(28);
    expect(new Date(bars[0]!.start).toISOString()).toBe('2026-02-22T13:00:00.000Z');
    expect(new Date(bars[27]!.start).toISOString()).toBe('2026-03-01T07:00:00.000Z');
    expect([bars[0]!.yes, bars[27]!.yes]).toEqual([4, 3]);
  });
});

describe('usage totals and breakdowns', () => {
  const metrics = [
    metric('2026-03-01T12:00:00Z', 5, 1, 'production', 'web', { blue: 4, red: 1 }),
    metric('2026-03-01T11:00:00Z', 2, 8, 'production', 'ios', { blue: 2 }),
    metric('2026-03-01T11:00:00Z', 1, 0, 'production', 'web', { red: 1 }),
  ];

  it('adds up on and off over the period', () => {
    const usage = usageOf(metrics, 'production', hourly(2), now);
    expect([usage.yes, usage.no]).toEqual([8, 9]);
  });

  it('counts per application, most evaluations first', () => {
    expect(usageOf(metrics, 'production', hourly(2), now).applications).toEqual([
      { name: 'ios', yes: 2, no: 8 },
      { name: 'web', yes: 6, no: 1 },
    ]);
  });

  it('counts per variant, most chosen first', () => {
    expect(usageOf(metrics, 'production', hourly(2), now).variants).toEqual([
      { name: 'blue', count: 6 },
      { name: 'red', count: 2 },
    ]);
  });

  it('says a share as a percentage with one decimal, and a dash of nothing', () => {
    expect([percent(8, 17), percent(1, 1), percent(0, 0)]).toEqual(['47.1%', '100%', '–']);
  });

  it("counts from the newest hour answered when the browser's clock is behind it", () => {
    expect(nowFor([metric('2026-03-01T13:00:00Z', 1, 0)], now)).toBe(Date.parse('2026-03-01T13:00:00Z'));
    expect(nowFor([metric('2026-03-01T11:00:00Z', 1, 0)], now)).toBe(now);
  });
});
