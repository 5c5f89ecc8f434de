// The instance's state moved in and out: an export (exportState) fetched as a file and saved through a download
// link, and an import (importState) of a file chosen here, sent as the `file` field of a multipart form with the
// keep/drop options and the environment of version 1 flags.
import { Alert, Button, Checkbox, FileInput, Group, Radio, Select, Stack, Text } from '@mantine/core';
import { IconDownload, IconUpload } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { components } from '../../../generated/api.js';
import { api, errorMessage, ok } from '../api';
import { optionsOf, useChange, useEnvironments } from '../queries';
import { ConfirmButton } from './feedback';

type QueryBoolean = components['schemas']['QueryBoolean'];
type Version = '1' | '2';
type Format = 'json' | 'yaml';

const yesNo = (value: boolean): QueryBoolean => (value ? 'true' : 'false');

/** The file name the service gives an attachment (`attachment; filename="export-….json"`). */
const attachmentName = (disposition: string | null) => /filename="([^"]+)"/.exec(disposition ?? '')?.[1];

/** Hands the browser a file to save, as a link with `download` would. */
function saveFile(file: Blob, name: string) {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Released once the browser has taken the file.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function EnvironmentSelect({ label, description, value, onChange }: { label: string; description: string; value: string | null; onChange: (value: string | null) => void }) {
  const environments = useEnvironments();
  return <Select label={label} description={description} data={optionsOf(environments.data?.map((e) => e.name))} value={value} onChange={onChange} allowDeselect={false} />;
}

export function StateExport() {
  const [version, setVersion] = useState<Version>('1');
  const [parts, setParts] = useState(['featureToggles', 'strategies']);
  const [environment, setEnvironment] = useState<string | null>('development');
  const [format, setFormat] = useState<Format>('json');
  const download = useChange(async () => {
    const query =
      version === '1'
        ? { version: 1 as const, featureToggles: yesNo(parts.includes('featureToggles')), strategies: yesNo(parts.includes('strategies')), environment: environment ?? undefined }
        : { version: 2 as const };
    const answer = api.GET('/api/admin/state/export', { params: { query: { ...query, format, download: 'true' } }, parseAs: 'blob' as const });
    const file = await ok(answer);
    const name = attachmentName((await answer).response.headers.get('content-disposition')) ?? `export.${format === 'yaml' ? 'yml' : 'json'}`;
    saveFile(file, name);
    return name;
  });
  return (
    <Stack gap="sm" maw={720}>
      <Radio.Group label="What to export" value={version} onChange={(value) => setVersion(value as Version)}>
        <Stack gap={6} mt={6}>
          <Radio value="1" label="Flags of one environment and strategy definitions (version 1, as Unleash exports)" />
          <Radio value="2" label="Everything: environments, projects, context fields, strategy definitions, tags, segments and every flag in every environment (version 2)" />
        </Stack>
      </Radio.Group>
      {version === '1' && (
        <Group align="flex-end">
          <Checkbox.Group label="Parts" value={parts} onChange={setParts}>
            <Group mt={6}>
              <Checkbox value="featureToggles" label="Flags" />
              <Checkbox value="strategies" label="Strategy definitions" />
            </Group>
          </Checkbox.Group>
          <EnvironmentSelect label="Environment" description="Whose state, strategies and variants the flags carry" value={environment} onChange={setEnvironment} />
        </Group>
      )}
      <Radio.Group label="Format" value={format} onChange={(value) => setFormat(value as Format)}>
        <Group mt={6}>
          <Radio value="json" label="JSON" />
          <Radio value="yaml" label="YAML" />
        </Group>
      </Radio.Group>
      <Group>
        <Button leftSection={<IconDownload size={16} />} loading={download.isPending} onClick={() => download.mutate(undefined)}>
          Export
        </Button>
        {download.data && (
          <Text size="sm" role="status">
            Saved as {download.data}
          </Text>
        )}
      </Group>
    </Stack>
  );
}

interface Import {
  file: File;
  keep: boolean;
  drop: boolean;
  environment: string;
}

/** What an import does, in words: the confirmation says it before, the result after. */
const effectOf = ({ keep, drop }: Pick<Import, 'keep' | 'drop'>) =>
  drop
    ? 'Every flag, custom strategy definition and segment is removed first, then the file’s are added.'
    : keep
      ? 'What exists is kept; only what is missing is added.'
      : 'Flags, strategy definitions and segments that exist are replaced by the file’s; the missing ones are added.';

export function StateImport() {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [keep, setKeep] = useState(true);
  const [drop, setDrop] = useState(false);
  const [environment, setEnvironment] = useState<string | null>('development');
  const importFile = useMutation({
    mutationFn: (chosen: Import) => {
      const form = new FormData();
      form.append('file', chosen.file);
      const query = { keep: yesNo(chosen.keep), drop: yesNo(chosen.drop), environment: chosen.environment };
      return ok(api.POST('/api/admin/state/import', { params: { query }, body: { file: chosen.file }, bodySerializer: () => form }));
    },
    // An import may touch every list the pages show.
    onSettled: () => queryClient.invalidateQueries(),
  });
  const choose = (chosen: File | null) => {
    setFile(chosen);
    importFile.reset();
  };
  const done = importFile.variables;
  return (
    <Stack gap="sm" maw={720}>
      <FileInput label="File" description="JSON or YAML, at most 50 MB" accept=".json,.yml,.yaml,application/json,application/yaml" clearable clearButtonProps={{ 'aria-label': 'Clear the file' }} value={file} onChange={choose} leftSection={<IconUpload size={16} />} />
      <Radio.Group label="Flags, strategy definitions and segments that exist already" value={keep ? 'keep' : 'replace'} onChange={(value) => setKeep(value === 'keep')}>
        <Stack gap={6} mt={6}>
          <Radio value="keep" label="Keep them; add only what is missing" />
          <Radio value="replace" label="Replace them with the file’s" />
        </Stack>
      </Radio.Group>
      <Checkbox label="Remove every flag (archived ones too), custom strategy definition and segment first" checked={drop} onChange={(e) => setDrop(e.currentTarget.checked)} />
      <EnvironmentSelect label="Environment of version 1 flags" description="A version 2 file names its environments itself" value={environment} onChange={setEnvironment} />
      <Group>
        {file ? (
          <ConfirmButton
            label="Import"
            title={`Import ${file.name}?`}
            confirmLabel="Import"
            color={drop ? 'red' : 'blue'}
            variant="filled"
            leftSection={<IconUpload size={16} />}
            // The outcome, either way, is shown below once the dialog has closed.
            onConfirm={() => importFile.mutateAsync({ file, keep, drop, environment: environment ?? 'development' }).catch(() => undefined)}
          >
            {effectOf({ keep, drop })} The file is checked whole first: if anything in it is invalid, nothing is written.
          </ConfirmButton>
        ) : (
          <Button leftSection={<IconUpload size={16} />} disabled>
            Import
          </Button>
        )}
      </Group>
      {done && importFile.isSuccess && (
        <Alert color="blue" title={`Imported ${done.file.name}`} role="status">
          {effectOf(done)}
        </Alert>
      )}
      {done && importFile.isError && (
        <Alert color="red" title={`${done.file.name} was not imported`} role="alert">
          {errorMessage(importFile.error)}
        </Alert>
      )}
    </Stack>
  );
}
