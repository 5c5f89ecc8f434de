import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { Page } from '../components/page';

export default function NotFound() {
  return (
    <Page title="Not found">
      <Text>
        There is no page here. <Anchor component={Link} to="/flags">Back to the flags</Anchor>
      </Text>
    </Page>
  );
}
