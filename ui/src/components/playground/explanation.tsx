// How one flag was decided in one environment, as the playground answered it: every strategy in order, in words,
// with what it came to, its segments and constraints (each with the value the context had, met or not), and the
// variant given.
import { Badge, Code, Group, Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { caseWords, constraintValues, operatorWords } from '../../lib/constraints.js';
import { strategyHeadline } from '../../lib/strategy-words.js';
import { useStrategies } from '../../queries';
import { contextValueOf, strategyOutcome, variantWords, type Answer, type ConstraintResult, type Strategy } from './words';

/** ✓ or ✗, named for screen readers. */
function Mark({ met }: { met: boolean }) {
  return (
    <Text span fw={700} c={met ? 'teal.9' : 'red.9'} role="img" aria-label={met ? 'met' : 'not met'}>
      {met ? '✓' : '✗'}
    </Text>
  );
}

/** At most this many of a constraint's values are shown; the rest are counted. */
const SHOWN_VALUES = 20;

function Values({ values }: { values: string[] }) {
  const shown = values.slice(0, SHOWN_VALUES);
  return (
    <>
      {shown.map((value, i) => (
        <span key={i}>
          {i > 0 && ', '}
          <Code>{value}</Code>
        </span>
      ))}
      {values.length > shown.length && ` and ${values.length - shown.length} more`}
    </>
  );
}

/** A bare list (no bullets) that stays a list for screen readers. */
function Bare({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack component="ul" role="list" aria-label={label} gap={4} m={0} p={0} style={{ listStyle: 'none' }}>
      {children}
    </Stack>
  );
}

function ConstraintLine({ constraint, context }: { constraint: ConstraintResult; context: Record<string, string> }) {
  const had = contextValueOf(context, constraint.contextName);
  return (
    <Group component="li" gap={6} wrap="wrap" align="baseline">
      <Mark met={constraint.result} />
      <Text span size="sm">
        <Code>{constraint.contextName}</Code> {operatorWords(constraint)} <Values values={constraintValues(constraint)} />
        {caseWords(constraint)}
      </Text>
      <Text span size="sm" c="gray.7">
        · context value:{' '}
        {had === undefined ? (constraint.contextName === 'currentTime' ? 'not set (now)' : 'not set') : <Code>{had}</Code>}
      </Text>
    </Group>
  );
}

function Constraints({ label, constraints, context }: { label: string; constraints: ConstraintResult[]; context: Record<string, string> }) {
  return (
    <Bare label={label}>
      {constraints.map((c, i) => (
        <ConstraintLine key={i} constraint={c} context={context} />
      ))}
    </Bare>
  );
}

function StrategyItem({ strategy, position, context }: { strategy: Strategy; position: number; context: Record<string, string> }) {
  const { data: definitions } = useStrategies();
  const outcome = strategyOutcome(strategy);
  const variant = strategy.result.evaluationStatus === 'complete' && strategy.result.variant?.enabled ? strategy.result.variant : undefined;
  return (
    <Paper component="li" withBorder p="sm" radius="sm">
      <Stack gap={6}>
        <Group gap="xs" wrap="wrap">
          <Text fw={600}>
            {position}. {strategyHeadline(strategy, definitions)}
          </Text>
          {strategy.title && <Text c="gray.7">“{strategy.title}”</Text>}
          <Badge component="span" color={outcome.matched ? 'teal.9' : 'gray.7'} variant={outcome.matched ? 'filled' : 'outline'}>
            {outcome.label}
          </Badge>
        </Group>
        <Text size="sm" c="gray.7">
          {outcome.because}
        </Text>
        {strategy.segments.map((segment) => (
          <Stack key={segment.id} gap={4}>
            <Group gap={6}>
              <Mark met={segment.result} />
              <Text span size="sm">
                Segment <strong>{segment.name || `#${segment.id}`}</strong>
                {segment.name ? (segment.constraints.length === 0 ? ' (no constraints: everyone is in it)' : '') : ' (no longer exists: never holds)'}
              </Text>
            </Group>
            {segment.constraints.length > 0 && (
              <Stack pl="lg" gap={4}>
                <Constraints label={`Constraints of segment ${segment.name || segment.id}`} constraints={segment.constraints} context={context} />
              </Stack>
            )}
          </Stack>
        ))}
        {strategy.constraints.length > 0 && <Constraints label={`Constraints of strategy ${position}`} constraints={strategy.constraints} context={context} />}
        {strategy.constraints.length === 0 && strategy.segments.length === 0 && (
          <Text size="sm" c="gray.7">
            No constraints or segments.
          </Text>
        )}
        {variant && (
          <Text size="sm">
            Variant chosen: <Code>{variant.name}</Code> (from this strategy’s variants)
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

/** The flag's outcome in a sentence: on or off, and why, with the variant given. */
function outcome(answer: Answer): string {
  if (!answer.isEnabledInCurrentEnvironment) return `Off: the flag is switched off in ${answer.environment}, whatever its strategies say.`;
  if (answer.hasUnsatisfiedDependency) return 'Off: a flag it depends on is not in the state it needs.';
  if (!answer.isEnabled) {
    return answer.strategies.result === 'unknown' ? 'Off: no built-in strategy matched (a custom one might, in an SDK that implements it).' : 'Off: no strategy matched.';
  }
  const variant = variantWords(answer);
  const head = answer.strategies.data.length === 0 ? 'On: no strategies, so on for everyone' : 'On: a strategy matched';
  return variant ? `${head}; variant ${variant}.` : `${head}; no variant.`;
}

/** How the flag was decided for the context in one environment. */
export function Explanation({ answer, id, label }: { answer: Answer; id: string; label: string }) {
  const strategies = answer.strategies.data;
  return (
    <Stack id={id} component="section" aria-label={label} gap="sm" py="xs" style={{ overflowWrap: 'anywhere' }}>
      <Text fw={600}>{outcome(answer)}</Text>
      {strategies.length > 0 && (
        <Stack component="ol" role="list" aria-label={`Strategies in ${answer.environment}, in order`} gap="xs" m={0} p={0} style={{ listStyle: 'none' }}>
          {strategies.map((strategy, i) => (
            <StrategyItem key={strategy.id || i} strategy={strategy} position={i + 1} context={answer.context} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
