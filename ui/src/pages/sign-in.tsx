// The sign-in page: a button per identity provider (getSignInOptions) and the password form, which hides behind a
// disclosure for administrators while password sign-in is turned off. A refused single sign-on comes back here
// with its reason in `?error=`.
import { Alert, Button, Box, Center, Divider, Paper, PasswordInput, Stack, Text, TextInput, Title, UnstyledButton } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { api, errorMessage, ok } from '../api';
import { PageLoader, QueryError } from '../components/feedback';
import { PRODUCT_NAME } from '../components/page';
import { signIn, useSessionQuery } from '../session';

/** Only a path of this app: a `next` pointing elsewhere is ignored. */
const safeNext = (next: string | null) => (next && next.startsWith('/') && !next.startsWith('//') ? next : '/flags');

export default function SignIn() {
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const refusal = params.get('error');
  const session = useSessionQuery();
  const options = useQuery({ queryKey: ['sign-in-options'], queryFn: () => ok(api.GET('/auth/options')) });

  useEffect(() => {
    document.title = `Sign in · ${PRODUCT_NAME}`;
  }, []);

  if (session.data) return <Navigate to={next} replace />;

  return (
    <Center mih="100vh" component="main" bg="gray.0">
      <Paper withBorder shadow="sm" p="xl" w={380}>
        <Stack>
          <Title order={1} size="h3">
            Sign in
          </Title>
          {refusal && (
            <Alert color="red" role="alert" title="Not signed in">
              {refusal}
            </Alert>
          )}
          {options.isPending ? (
            <PageLoader />
          ) : options.isError ? (
            <QueryError error={options.error} />
          ) : (
            <>
              {options.data.providers.map((provider) => (
                // A link, not a fetch: the sign-in leaves for the identity provider and comes back with the session.
                <Button key={provider.path} component="a" href={`${provider.path}?${new URLSearchParams({ redirect: next })}`} variant="default">
                  Sign in with {provider.name}
                </Button>
              ))}
              {options.data.passwordEnabled ? (
                <>
                  {options.data.providers.length > 0 && <Divider label="or with a password" labelPosition="center" />}
                  <PasswordForm next={next} />
                </>
              ) : (
                <AdministratorDisclosure next={next} />
              )}
            </>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}

/** While password sign-in is turned off, root Admins may still use it: the form waits behind a small toggle. */
function AdministratorDisclosure({ next }: { next: string }) {
  const [open, setOpen] = useState(false);
  const formId = useId();
  return (
    <Stack gap="xs">
      <UnstyledButton onClick={() => setOpen((o) => !o)} aria-expanded={open} aria-controls={formId}>
        <Text size="sm" c="dimmed" td="underline">
          Administrator sign-in with password
        </Text>
      </UnstyledButton>
      <Box id={formId}>{open && <PasswordForm next={next} />}</Box>
    </Stack>
  );
}

function PasswordForm({ next }: { next: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const usernameInput = useRef<HTMLInputElement>(null);

  useEffect(() => usernameInput.current?.focus(), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await signIn(queryClient, username, password);
      navigate(next, { replace: true });
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} aria-label="Sign in with a password">
      <Stack>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <TextInput
          ref={usernameInput}
          label="Username or email"
          autoComplete="username"
          required
          value={username}
          onChange={(e) => setUsername(e.currentTarget.value)}
        />
        <PasswordInput label="Password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
        <Button type="submit" loading={busy}>
          Sign in
        </Button>
      </Stack>
    </form>
  );
}
