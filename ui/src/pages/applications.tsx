// The applications whose SDKs registered or reported metrics (getApplications), each leading to its own page.
import { Anchor } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, ok } from '../api';
import { when } from '../components/forms';
import { ListTable } from '../components/list';
import { Page } from '../components/page';

const applicationPath = (appName: string) => `/applications/${encodeURIComponent(appName)}`;

export default function Applications() {
  const applications = useQuery({ queryKey: ['applications'], queryFn: async () => (await ok(api.GET('/api/admin/metrics/applications'))).applications });
  return (
    <Page title="Applications" description="The applications whose SDKs registered with the service or reported how often they evaluated flags.">
      <ListTable
        label="Applications"
        query={applications}
        rowKey={(a) => a.appName}
        empty="No SDK has registered yet — connect one with a client token from API tokens."
        columns={[
          {
            label: 'Name',
            cell: (a) => (
              <Anchor component={Link} to={applicationPath(a.appName)} fw={700}>
                {a.appName}
              </Anchor>
            ),
          },
          { label: 'Environments', cell: (a) => a.environments.join(', ') },
          { label: 'Strategies', cell: (a) => a.strategies.join(', ') },
          { label: 'Instances', cell: (a) => a.instances.length },
          { label: 'First seen', cell: (a) => when(a.createdAt) },
          { label: 'Last seen', cell: (a) => when(a.lastSeen) },
        ]}
      />
    </Page>
  );
}
