// A new password typed twice: the rule the service holds it to, and the two compared before anything is sent.
import { PasswordInput } from '@mantine/core';
import { useState } from 'react';

export const PASSWORD_RULE = 'At least 10 characters, not a common one';

export function useNewPassword() {
  const [password, setPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  return {
    password,
    repeated,
    setPassword,
    setRepeated,
    /** Both typed, and different. */
    mismatch: repeated !== '' && repeated !== password,
    /** Typed, and the same twice. */
    ready: password !== '' && repeated === password,
  };
}

export function NewPasswordFields({ label, value }: { label: string; value: ReturnType<typeof useNewPassword> }) {
  return (
    <>
      <PasswordInput
        label={label}
        description={PASSWORD_RULE}
        autoComplete="new-password"
        required
        maxLength={128}
        value={value.password}
        onChange={(e) => value.setPassword(e.currentTarget.value)}
      />
      <PasswordInput
        label="Confirm password"
        autoComplete="new-password"
        required
        maxLength={128}
        error={value.mismatch && 'The two passwords differ'}
        value={value.repeated}
        onChange={(e) => value.setRepeated(e.currentTarget.value)}
      />
    </>
  );
}
