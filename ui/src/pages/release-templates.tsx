import { Group, Stack, Text } from '@mantine/core';
import { DialogButton } from '../components/dialog-button';
import { ConfirmButton } from '../components/feedback';
import { NewButton } from '../components/forms';
import { ListTable } from '../components/list';
import { Page } from '../components/page';
import { useDeleteTemplate, useTemplates } from '../components/release-plan/queries';
import { TemplateDialog } from '../components/release-plan/template-form';
import { describeMinutes } from '../lib/release-plans.js';
import { useSession } from '../session';

export default function ReleaseTemplates() {
  const session = useSession();
  const templates = useTemplates();
  const remove = useDeleteTemplate();
  return (
    <Page
      title="Release templates"
      description="Milestones a flag is released through, one environment at a time: each milestone's strategies, and when it hands over to the next."
      actions={<NewButton label="New template" allowed={session.can('createReleasePlanTemplate')} dialog={(close) => <TemplateDialog onClose={close} />} />}
    >
      <ListTable
        label="Release templates"
        query={templates}
        rowKey={(t) => t.id}
        empty="No release templates yet — create one to release flags in milestones (5% → 25% → 100%)."
        columns={[
          { label: 'Name', cell: (t) => <strong>{t.name}</strong> },
          { label: 'Description', cell: (t) => t.description },
          {
            label: 'Milestones',
            cell: (t) => (
              <Stack gap={2}>
                {t.milestones.map((m, i) => (
                  <Text key={m.id} size="sm">
                    {i + 1}. {m.name}
                    {m.transitionCondition ? `, then after ${describeMinutes(m.transitionCondition.intervalMinutes)}` : ''}
                  </Text>
                ))}
              </Stack>
            ),
          },
          {
            label: 'Actions',
            cell: (t) => (
              <Group gap="xs" wrap="nowrap">
                {session.can('updateReleasePlanTemplate') && <DialogButton label="Edit" ariaLabel={`Edit ${t.name}`} dialog={(close) => <TemplateDialog template={t} onClose={close} />} />}
                {session.can('deleteReleasePlanTemplate') && (
                  <ConfirmButton label="Delete" size="xs" title={`Delete ${t.name}?`} done={`${t.name} deleted.`} onConfirm={() => remove.mutateAsync(t.id)}>
                    Plans already made from this template keep their milestones and go on.
                  </ConfirmButton>
                )}
              </Group>
            ),
          },
        ]}
      />
    </Page>
  );
}
