import { Anchor, Breadcrumbs, Text } from '@mantine/core';
import { Link } from 'react-router';

/** Where a project's page sits: Projects › its name. */
export function ProjectBreadcrumbs({ name }: { name: string }) {
  return (
    <nav aria-label="Breadcrumbs">
      <Breadcrumbs separator="›" separatorMargin={6}>
        <Anchor component={Link} to="/projects" size="sm">
          Projects
        </Anchor>
        <Text size="sm" aria-current="page">
          {name}
        </Text>
      </Breadcrumbs>
    </nav>
  );
}
