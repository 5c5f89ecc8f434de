// A plan's milestones in order: which ran, which runs now (with how far it is and whether it is paused), and a
// Start on the others.
import { Badge, Button, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { describeMinutes, progressOf } from '../../lib/release-plans.js';
import type { Milestone, ReleasePlan } from './queries';

/** The time now, read again every `ms`. */
function useNow(ms: number) {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

export function Milestones({ plan, onStart }: { plan: ReleasePlan; onStart?: (milestone: Milestone) => Promise<unknown> }) {
  const now = useNow(5_000);
  const milestones = [...plan.milestones].sort((a, b) => a.sortOrder - b.sortOrder);
  const activeIndex = milestones.findIndex((m) => m.id === plan.activeMilestoneId);
  return (
    <Stack gap="xs" component="ol" aria-label={`Milestones in ${plan.environment}`} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {milestones.map((milestone, index) => {
        const active = index === activeIndex;
        const progress = active ? progressOf(milestone, now) : undefined;
        return (
          <Paper
            key={milestone.id}
            component="li"
            withBorder
            p="xs"
            aria-current={active ? 'step' : undefined}
            data-testid="milestone"
            bg={active ? 'blue.0' : undefined}
            style={active ? { borderColor: 'var(--mantine-color-blue-8)', borderWidth: 2 } : undefined}
          >
            <Group justify="space-between" wrap="nowrap">
              <Group gap="xs">
                <Text size="sm" fw={600}>
                  {index + 1}. {milestone.name}
                </Text>
                {active && (progress?.paused ? <Badge color="red.9">paused</Badge> : <Badge color="blue.8">active</Badge>)}
                {activeIndex >= 0 && index < activeIndex && (
                  <Badge variant="default" tt="none">
                    done
                  </Badge>
                )}
                {milestone.transitionCondition && (
                  <Text size="xs" c="dimmed">
                    advances after {describeMinutes(milestone.transitionCondition.intervalMinutes)}
                  </Text>
                )}
              </Group>
              {onStart && !active && (
                <Button size="compact-xs" variant="light" leftSection={<IconPlayerPlay size={12} />} aria-label={`Start milestone ${milestone.name}`} onClick={() => onStart(milestone)}>
                  Start
                </Button>
              )}
            </Group>
            {progress && (
              <Stack gap={4} mt={6}>
                <Text size="xs">
                  {progress.paused ? 'Paused after ' : 'Running for '}
                  {describeMinutes(progress.elapsed)}
                  {progress.interval !== undefined ? ` of ${describeMinutes(progress.interval)}` : ', until someone starts the next milestone'}
                </Text>
                {progress.percent !== undefined && (
                  <Progress.Root size="sm">
                    <Progress.Section value={progress.percent} color={progress.paused ? 'orange.8' : 'blue.8'} aria-label={`Progress of ${milestone.name}`} />
                  </Progress.Root>
                )}
              </Stack>
            )}
          </Paper>
        );
      })}
    </Stack>
  );
}
