// Where an invite link leads (`/new-user?invite=<secret>`, the URL the service gives each signup token): the link is
// checked (validateSignupToken), the newcomer creates an account with it (signUp, which makes them a Viewer) and is
// signed in at once.
import { Alert, Anchor, Button, Center, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { api, errorMessage, ok } from '../api';
import { PageLoader } from '../components/feedback';
import { PRODUCT_NAME } from '../components/page';
import { NewPasswordFields, useNewPassword } from '../components/new-password';
import { signIn, useSessionQuery } from '../session';

export default function NewUser() {
  const [params] = useSearchParams();
  const invite = params.get('invite') ?? '';
  const session = useSessionQuery();
  const valid = useQuery({
    queryKey: ['invite', invite],
    queryFn: async () => {
      await ok(api.GET('/invite/{token}/validate', { params: { path: { token: invite } } }));
      return true; // The answer has no body; a query's data cannot be undefined.
    },
    enabled: invite !== '',
    retry: false,
  });

  useEffect(() => {
    document.title = `Join · ${PRODUCT_NAME}`;
  }, []);

  if (session.data) return <Navigate to="/flags" replace />;
  return (
    <Center mih="100vh" component="main" bg="gray.0">
      <Paper withBorder shadow="sm" p="xl" w={420}>
        <Stack>
          <Title order={1} size="h3">
            Create your account
          </Title>
          {invite === '' ? (
            <Refused message="This address has no invite in it: open the whole link you were sent." />
          ) : valid.isPending ? (
            <PageLoader />
          ) : valid.isError ? (
            <Refused message={errorMessage(valid.error)} />
          ) : (
            <SignUpForm invite={invite} />
          )}
        </Stack>
      </Paper>
    </Center>
  );
}

function Refused({ message }: { message: string }) {
  return (
    <>
      <Alert color="red" role="alert" title="This invite link cannot be used">
        {message} Ask whoever invited you for a new link.
      </Alert>
      <Anchor component={Link} to="/signin">
        Sign in with an account you have
      </Anchor>
    </>
  );
}

function SignUpForm({ invite }: { invite: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const newPassword = useNewPassword();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (newPassword.mismatch) return;
    setBusy(true);
    setError(undefined);
    try {
      await ok(api.POST('/invite/{token}/signup', { params: { path: { token: invite } }, body: { name: name.trim(), email: email.trim(), password: newPassword.password } }));
      await signIn(queryClient, email.trim(), newPassword.password);
      navigate('/flags', { replace: true });
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit}>
      <Stack>
        <Text size="sm">You were invited to the feature flags of this team. You join as a Viewer; an admin can give you more.</Text>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <TextInput label="Name" autoComplete="name" required maxLength={255} data-autofocus value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <TextInput label="Email" type="email" autoComplete="email" description="You sign in with it" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
        <NewPasswordFields label="Password" value={newPassword} />
        <Button type="submit" loading={busy} disabled={newPassword.mismatch}>
          Create account
        </Button>
      </Stack>
    </form>
  );
}
