// A flag's metadata: its description, type and whether SDKs emit impression events for it (updateFeature; the
// name and project stay).
import { Button, Select, Switch, Textarea } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useState } from 'react';
import type { components } from '../../../../generated/api.js';
import { api, ok } from '../../api';
import { useChange, useFeatureTypes } from '../../queries';
import { FormDialog } from '../forms';

type Feature = components['schemas']['Feature'];

export function EditFlag({ flag }: { flag: Feature }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="default" leftSection={<IconPencil size={16} />} onClick={() => setOpen(true)}>
        Edit
      </Button>
      {open && <EditFlagDialog flag={flag} onClose={() => setOpen(false)} />}
    </>
  );
}

function EditFlagDialog({ flag, onClose }: { flag: Feature; onClose: () => void }) {
  const types = useFeatureTypes();
  const [description, setDescription] = useState(flag.description ?? '');
  const [type, setType] = useState(flag.type);
  const [impressionData, setImpressionData] = useState(flag.impressionData);
  const save = useChange(
    () =>
      ok(
        api.PUT('/api/admin/projects/{projectId}/features/{featureName}', {
          params: { path: { projectId: flag.project, featureName: flag.name } },
          body: { description: description.trim() || null, type, impressionData },
        }),
      ),
    ['flag', flag.project, flag.name],
    ['flags'],
  );
  return (
    <FormDialog title={`Edit ${flag.name}`} submitLabel="Save" onClose={onClose} onSubmit={() => save.mutateAsync(undefined)} done={`${flag.name} saved.`}>
      <Textarea label="Description" autosize minRows={2} data-autofocus value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
      <Select label="Type" data={(types.data ?? []).map((t) => ({ value: t.id, label: t.name }))} value={type} onChange={(v) => v && setType(v)} allowDeselect={false} />
      <Switch
        label="Impression data"
        description="SDKs emit an impression event each time they evaluate the flag"
        checked={impressionData}
        onChange={(e) => setImpressionData(e.currentTarget.checked)}
      />
    </FormDialog>
  );
}
