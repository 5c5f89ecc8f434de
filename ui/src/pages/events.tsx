import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../api';
import { Loaded } from '../components/feedback';
import { EventTable } from '../components/flag/flag-events';
import { Page } from '../components/page';
import { useProjects } from '../queries';

export default function Events() {
  const [project, setProject] = useState<string | null>(null);
  const projects = useProjects();
  const events = useQuery({
    queryKey: ['events', project ?? '*'],
    queryFn: () => ok(api.GET('/api/admin/events', { params: { query: project ? { project } : {} } })),
  });
  return (
    <Page title="Event log" description="Every change, newest first.">
      <Select label="Project" placeholder="All projects (the latest events)" clearable data={(projects.data ?? []).map((p) => p.id)} value={project} onChange={setProject} w={280} />
      <Loaded query={events} empty="No events." isEmpty={(data) => data.events.length === 0}>
        {(data) => <EventTable events={data.events} showFlag />}
      </Loaded>
    </Page>
  );
}
