// An environment's card on a flag's page, as the active and the archived flag both show it: a region named for the
// environment, its name (h3) and type, what else the page says beside them, and its state on the right.
import { Badge, Card, Group, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function EnvironmentFrame({ environment, beside, state, children }: { environment: { name: string; type: string }; beside?: ReactNode; state: ReactNode; children: ReactNode }) {
  return (
    <Card withBorder padding="md" component="section" aria-label={`Environment ${environment.name}`}>
      <Group justify="space-between" mb="sm">
        <Group gap="sm">
          <Title order={3} size="h4">
            {environment.name}
          </Title>
          <Badge variant="default" tt="none">
            {environment.type}
          </Badge>
          {beside}
        </Group>
        {state}
      </Group>
      {children}
    </Card>
  );
}
