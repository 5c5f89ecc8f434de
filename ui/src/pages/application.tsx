// One application (getApplication): the environments its SDKs read, the strategies they announced, and each
// running instance with its SDK version, address and when it was last heard from.
import { Anchor, Badge, Group } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, ok } from '../api';
import { Empty, Loaded } from '../components/feedback';
import { when } from '../components/forms';
import { ListTable } from '../components/list';
import { Page, Section } from '../components/page';

export default function Application() {
  const { appName = '' } = useParams();
  const application = useQuery({
    queryKey: ['applications', appName],
    queryFn: () => ok(api.GET('/api/admin/metrics/applications/{appName}', { params: { path: { appName } } })),
  });
  return (
    <Page
      title={appName}
      description={
        <>
          {application.data && `First seen ${when(application.data.createdAt)}, last seen ${when(application.data.lastSeen)}. `}
          <Anchor component={Link} to="/applications" underline="always">
            All applications
          </Anchor>
        </>
      }
    >
      <Loaded query={application} empty="" isEmpty={() => false}>
        {(app) => (
          <>
            <Section title="Environments">
              <Names names={app.environments} none="No instance has reported an environment." />
            </Section>
            <Section title="Strategies">
              <Names names={app.strategies} none="Its SDKs announced no strategies." />
            </Section>
            <Section title="Instances">
              <ListTable
                label="Instances"
                query={{ data: app.instances }}
                rowKey={(i) => `${i.instanceId} ${i.environment}`}
                empty="No instance has registered."
                columns={[
                  { label: 'Instance', cell: (i) => <strong>{i.instanceId}</strong> },
                  { label: 'Environment', cell: (i) => i.environment },
                  { label: 'SDK version', cell: (i) => i.sdkVersion ?? 'unknown' },
                  { label: 'Address', cell: (i) => i.clientIp ?? 'unknown' },
                  { label: 'Last seen', cell: (i) => when(i.lastSeen) },
                ]}
              />
            </Section>
          </>
        )}
      </Loaded>
    </Page>
  );
}

function Names({ names, none }: { names: string[]; none: string }) {
  if (names.length === 0) return <Empty>{none}</Empty>;
  return (
    <Group gap="xs">
      {names.map((name) => (
        <Badge key={name} variant="default" tt="none">
          {name}
        </Badge>
      ))}
    </Group>
  );
}
