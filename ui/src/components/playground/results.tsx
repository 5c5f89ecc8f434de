// The playground's results: a row per flag. In one environment its result, variant and why, the why opening the
// explanation below the row; in several a column per environment, each cell opening that environment's explanation.
import { Anchor, Badge, Group, Table, Text } from '@mantine/core';
import { IconChevronRight } from '@tabler/icons-react';
import { Fragment, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { components } from '../../../../generated/api.js';
import { flagPath } from '../../paths';
import { Empty } from '../feedback';
import { Explanation } from './explanation';
import { variantWords, why, type Answer } from './words';

type Response = components['schemas']['AdvancedPlaygroundResponse'];

function Result({ on }: { on: boolean }) {
  return (
    <Badge component="span" color={on ? 'teal.9' : 'gray.7'} variant={on ? 'filled' : 'outline'}>
      {on ? 'on' : 'off'}
    </Badge>
  );
}

/** A button that shows or hides the explanation it controls. */
function Disclosure({ expanded, controls, onToggle, children }: { expanded: boolean; controls: string; onToggle: () => void; children: ReactNode }) {
  return (
    <Anchor component="button" type="button" aria-expanded={expanded} aria-controls={expanded ? controls : undefined} onClick={onToggle} ta="left" fz="sm">
      <Group component="span" gap={4} wrap="nowrap" align="center">
        <IconChevronRight size={14} aria-hidden style={{ flex: 'none', transform: expanded ? 'rotate(90deg)' : undefined, transition: 'transform 120ms' }} />
        <span>{children}</span>
      </Group>
    </Anchor>
  );
}

/** The one answer per environment (the context holds one value per field, so there is one combination). */
const answerIn = (feature: Response['features'][number], environment: string): Answer | undefined => feature.environments[environment]?.[0];

export function Results({ response }: { response: Response }) {
  const environments = [...new Set(response.input.environments)];
  const single = environments.length === 1;
  /** The environment whose explanation is open, per flag. */
  const [open, setOpen] = useState<Record<string, string | undefined>>({});
  if (response.features.length === 0) return <Empty>No flags to evaluate yet.</Empty>;
  const toggle = (flag: string, environment: string) => setOpen((o) => ({ ...o, [flag]: o[flag] === environment ? undefined : environment }));
  const columns = single ? ['Flag', 'Result', 'Variant', 'Why'] : ['Flag', ...environments];
  return (
    <Table aria-label="Results" verticalSpacing="xs" layout="auto">
      <Table.Thead>
        <Table.Tr>
          {columns.map((c) => (
            <Table.Th key={c}>{c}</Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {response.features.map((feature, row) => {
          const opened = open[feature.name];
          const openedAnswer = opened === undefined ? undefined : answerIn(feature, opened);
          const detailId = (environment: string) => `playground-why-${row}-${environments.indexOf(environment)}`;
          const disclosure = (environment: string, children: ReactNode) => (
            <Disclosure expanded={opened === environment} controls={detailId(environment)} onToggle={() => toggle(feature.name, environment)}>
              {children}
            </Disclosure>
          );
          const answer = answerIn(feature, environments[0]!);
          return (
            <Fragment key={feature.name}>
              <Table.Tr>
                <Table.Td>
                  <Anchor component={Link} to={flagPath(feature.projectId, feature.name)}>
                    {feature.name}
                  </Anchor>
                </Table.Td>
                {single && answer ? (
                  <>
                    <Table.Td>
                      <Result on={answer.isEnabled} />
                    </Table.Td>
                    <Table.Td>{variantWords(answer) ?? ''}</Table.Td>
                    <Table.Td>{disclosure(environments[0]!, why(answer))}</Table.Td>
                  </>
                ) : (
                  environments.map((environment) => {
                    const here = answerIn(feature, environment);
                    const variant = here && variantWords(here);
                    return (
                      <Table.Td key={environment}>
                        {here &&
                          disclosure(
                            environment,
                            <>
                              <Result on={here.isEnabled} />
                              {variant && <Text span size="sm">{` variant ${variant}`}</Text>}
                            </>,
                          )}
                      </Table.Td>
                    );
                  })
                )}
              </Table.Tr>
              {opened !== undefined && openedAnswer && (
                <Table.Tr>
                  <Table.Td colSpan={columns.length} bg="gray.0">
                    <Explanation id={detailId(opened)} answer={openedAnswer} label={`How ${feature.name} was decided in ${opened}`} />
                  </Table.Td>
                </Table.Tr>
              )}
            </Fragment>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
