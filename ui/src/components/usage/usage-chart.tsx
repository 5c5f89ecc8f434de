// A flag's evaluations over a period as stacked bars, on (teal) and off (gray), with axes and a legend. Loaded on its
// own (React.lazy from the flag's Usage tab): recharts and the charts' styles are fetched only when usage is shown.
import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Text } from '@mantine/core';
import { summaryOf, type Bar } from '../../lib/usage.js';

export interface UsageChartProps {
  bars: Bar[];
  hoursPerBar: number;
  /** What the bars cover, in words ("Last 24 hours"). */
  words: string;
}

const count = (n: number) => n.toLocaleString('en-GB');

/** The start of a bar: its time of day, with the date once the chart spans more than a day. */
function startOf(start: number, withDate: boolean): string {
  const time = new Date(start).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return withDate ? `${new Date(start).toLocaleDateString(undefined, { day: 'numeric', month: 'short' })}, ${time}` : time;
}

export default function UsageChart({ bars, hoursPerBar, words }: UsageChartProps) {
  const withDate = bars.length * hoursPerBar > 24;
  const data = bars.map((bar) => ({ start: startOf(bar.start, withDate), on: bar.yes, off: bar.no }));
  const per = hoursPerBar === 1 ? 'hour' : `${hoursPerBar} hours`;
  const yes = bars.reduce((sum, b) => sum + b.yes, 0);
  const no = bars.reduce((sum, b) => sum + b.no, 0);
  // An image to screen readers, named by what it adds up to (recharts' SVG says nothing by itself).
  return (
    <div data-testid="usage-chart">
      <div role="img" aria-label={summaryOf(words, yes, no)}>
        <BarChart
          h={280}
          data={data}
          dataKey="start"
          type="stacked"
          series={[
            { name: 'on', label: 'On', color: 'teal.8' },
            { name: 'off', label: 'Off', color: 'gray.6' },
          ]}
          withLegend
          legendProps={{ verticalAlign: 'top', height: 40, itemSorter: null }}
          xAxisLabel={`Start of each ${per}`}
          yAxisLabel="Evaluations"
          textColor="gray.7"
          valueFormatter={count}
          tooltipAnimationDuration={0}
          accessibilityLayer={false}
          yAxisProps={{ width: 56, allowDecimals: false }}
          xAxisProps={{ height: 32, minTickGap: 8 }}
          maxBarWidth={48}
        />
      </div>
      <Text size="xs" c="gray.7">
        Each bar counts the evaluations SDKs reported in one {per}: on when the flag was on for them, off when it was off.
      </Text>
    </div>
  );
}
