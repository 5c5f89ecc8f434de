// Loading, failure and emptiness, said the same way on every page.
import { Alert, Button, Center, Group, Loader, Modal, Stack, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { errorMessage } from '../api';
import { useSubmit } from './forms';

export function PageLoader() {
  return (
    <Center h={200}>
      <Loader aria-label="Loading" />
    </Center>
  );
}

/** A query that failed: the service's message (a 403 names the permission that is missing). */
export function QueryError({ error }: { error: unknown }) {
  return (
    <Alert color="red" title="Could not load this" role="alert">
      {errorMessage(error)}
    </Alert>
  );
}

export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : errorMessage(error);
  return (
    <Stack p="xl" component="main">
      <Title order={1}>Something went wrong</Title>
      <Alert color="red" role="alert">
        {message}
      </Alert>
      <Text>
        <Link to="/flags">Back to the flags</Link>
      </Text>
    </Stack>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return (
    <Text c="gray.7" py="md">
      {children}
    </Text>
  );
}

/** A button that asks first: "Archive" → a dialog saying what will happen → the action. */
export function ConfirmButton(props: {
  label: string;
  title: string;
  children: ReactNode;
  confirmLabel?: string;
  onConfirm: () => Promise<unknown>;
  /** What is said once it worked ("Token revoked."). */
  done?: string;
  color?: string;
  variant?: string;
  size?: string;
  leftSection?: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const [busy, confirm] = useSubmit(props.onConfirm, () => setOpen(false), props.done);
  return (
    <>
      <Button color={props.color ?? 'red'} variant={props.variant ?? 'light'} size={props.size ?? 'sm'} leftSection={props.leftSection} onClick={() => setOpen(true)}>
        {props.label}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={props.title}>
        <Stack>
          <div>{props.children}</div>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button color={props.color ?? 'red'} loading={busy} onClick={() => confirm()}>
              {props.confirmLabel ?? props.label}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

/** A query's data once loaded; its loading, failure, or `empty` when `isEmpty` says so. */
export function Loaded<T>({ query, empty, isEmpty, children }: { query: UseQueryResult<T>; empty: string; isEmpty: (data: T) => boolean; children: (data: T) => ReactNode }) {
  if (query.isPending) return <PageLoader />;
  if (query.isError) return <QueryError error={query.error} />;
  if (isEmpty(query.data)) return <Empty>{empty}</Empty>;
  return <>{children(query.data)}</>;
}
