import { Button, Radio, Group, TextInput } from '@mantine/core';
import { IconArrowBackUp, IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { api, ok } from '../../api';
import { useChange } from '../../queries';
import { ConfirmButton } from '../feedback';
import { FormDialog } from '../forms';

/** The lifecycle's "complete": whether the feature was kept or discarded, and optionally what was kept; undone in place. */
export function CompleteFlag({ project, feature, completed }: { project: string; feature: string; completed: boolean }) {
  const [open, setOpen] = useState(false);
  const uncomplete = useChange(
    () => ok(api.POST('/api/admin/projects/{projectId}/features/{featureName}/lifecycle/uncomplete', { params: { path: { projectId: project, featureName: feature } } })),
    ['flag', project, feature],
  );
  return (
    <>
      <Button variant="light" leftSection={<IconCircleCheck size={16} />} onClick={() => setOpen(true)}>
        {completed ? 'Change completion' : 'Complete'}
      </Button>
      {completed && (
        <ConfirmButton label="Undo completion" color="gray" leftSection={<IconArrowBackUp size={16} />} title={`Undo the completion of ${feature}?`} onConfirm={() => uncomplete.mutateAsync(undefined)} done={`${feature} is no longer completed.`}>
          The flag goes back to the stage it was in before it was completed.
        </ConfirmButton>
      )}
      {open && <CompleteDialog project={project} feature={feature} onClose={() => setOpen(false)} />}
    </>
  );
}

function CompleteDialog({ project, feature, onClose }: { project: string; feature: string; onClose: () => void }) {
  const [status, setStatus] = useState<'kept' | 'discarded'>('kept');
  const [value, setValue] = useState('');
  const complete = useChange(
    () =>
      ok(
        api.POST('/api/admin/projects/{projectId}/features/{featureName}/lifecycle/complete', {
          params: { path: { projectId: project, featureName: feature } },
          body: { status, ...(value.trim() && { statusValue: value.trim() }) },
        }),
      ),
    ['flag', project, feature],
  );
  return (
    <FormDialog title={`Complete ${feature}`} submitLabel="Complete" onClose={onClose} onSubmit={() => complete.mutateAsync(undefined)} done={`${feature} is completed: ${status}.`}>
      <Radio.Group label="The feature was" value={status} onChange={(v) => setStatus(v === 'discarded' ? 'discarded' : 'kept')}>
        <Group mt="xs">
          <Radio value="kept" label="Kept" />
          <Radio value="discarded" label="Discarded" />
        </Group>
      </Radio.Group>
      <TextInput label="What was kept" description="Optional, e.g. the variant that won" value={value} onChange={(e) => setValue(e.currentTarget.value)} />
    </FormDialog>
  );
}
