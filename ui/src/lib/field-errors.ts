// What is wrong with what the user typed, said on the field where they typed it: a name field checked when it is left
// (its format here, then whether the name is taken, asked of the service once), and a refusal of the service (400)
// shown on the field its message names (`body.name must match pattern "…"`), in plain words, never as a regex.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { ApiError } from '../api';

/** What a field accepts, as the contract says it (the browser checks it before asking the service). */
export interface FieldRule {
  /**
   * The contract's pattern as a `pattern` attribute: the whole value must match, compiled with the `v` flag (where
   * `(`, `)` and `-` in a class must be escaped).
   */
  pattern?: string;
  maxLength: number;
  /** The pattern in plain words ("Use only letters, digits and …"). */
  says: string;
  /** What an empty field is told; an empty field is let through when absent (the field is optional). */
  required?: string;
}

/** The contract's NameType (flag names, project ids): URL-safe characters, not `.` or `..` (they would name the parent). */
export const URL_SAFE_NAME: FieldRule = {
  pattern: String.raw`(?!\.{1,2}$)[A-Za-z0-9_.!~*'\(\)\-]+`,
  maxLength: 100,
  says: "Use only letters, digits and _ . ! ~ * ' ( ) -, with no spaces, and not just . or ..",
  required: 'A name is required',
};

/** A name for people (project, segment and token names): anything but blank. */
export const FREE_TEXT_NAME: FieldRule = {
  pattern: String.raw`.*\S.*`,
  maxLength: 100,
  says: 'Write at least one character that is not a space',
  required: 'A name is required',
};

/** The rule of a field that may be left empty. */
export const optional = (rule: FieldRule): FieldRule => ({ pattern: rule.pattern, maxLength: rule.maxLength, says: rule.says });

/** What is wrong with `value` under `rule`, in plain words; null when nothing is. */
export function ruleProblem(rule: FieldRule, value: string): string | null {
  if (value === '') return rule.required ?? null;
  if (value.length > rule.maxLength) return `Use at most ${rule.maxLength} characters`;
  if (rule.pattern !== undefined && !new RegExp(`^(?:${rule.pattern})$`, 'v').test(value)) return rule.says;
  return null;
}

/**
 * Asks the service whether a name is taken: null when it is free, else what to tell the user (the service's 409
 * message, which says where the name is used, or its 400 in plain words). When the service cannot answer, null:
 * the submit will say why.
 */
export async function takenBecause(ask: () => Promise<unknown>, rule: FieldRule, field: string): Promise<string | null> {
  try {
    await ask();
    return null;
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) return error.message;
    if (error instanceof ApiError && error.status === 400) return fieldErrorsOf(error, { [field]: rule })?.[field] ?? null;
    return null;
  }
}

export interface NameField {
  rule: FieldRule;
  value: string;
  setValue: (value: string) => void;
  error: string | null;
  /** Shows a problem on the field (a refusal of the service on submit). */
  setError: (error: string | null) => void;
  /** Checks the value as it is now (format, then the service once per value): whether it may be sent. */
  check: () => Promise<boolean>;
  /** For a Mantine TextInput: value, change, blur, error, the browser's own checks and their plain-words message. */
  inputProps: {
    value: string;
    onChange: (event: ChangeEvent<HTMLInputElement>) => void;
    onBlur: () => void;
    onInvalid: (event: FormEvent<HTMLInputElement>) => void;
    error: string | null;
    pattern: string | undefined;
    maxLength: number;
    required: boolean;
  };
}

/**
 * A name field checked where the user types: its format when it is left (in the browser), then whether the name is
 * taken (`taken`, asked once per value; not for `unchanged`, the name it already has). A submit calls `check()`
 * first and sends nothing while it is false.
 */
export function useNameField(options: { rule: FieldRule; initial?: string; unchanged?: string; taken?: (name: string) => Promise<string | null> }): NameField {
  const { rule, taken, unchanged } = options;
  const [value, setValueState] = useState(options.initial ?? '');
  const [error, setError] = useState<string | null>(null);
  // The last value asked about and its answer, so that leaving the field and then submitting asks once.
  const asked = useRef<{ name: string; answer: Promise<string | null> } | null>(null);
  const current = useRef(value);

  const setValue = (next: string) => {
    current.current = next;
    setValueState(next);
    setError(null);
  };

  const check = async (): Promise<boolean> => {
    // As the browser's own check (`pattern`, `required`) reads it: the value as typed; the service is asked about it trimmed.
    const problem = ruleProblem(rule, current.current);
    if (problem !== null) {
      setError(problem);
      return false;
    }
    const name = current.current.trim();
    if (!taken || name === '' || name === unchanged) return true;
    if (asked.current?.name !== name) asked.current = { name, answer: taken(name) };
    const answer = await asked.current.answer;
    // The user typed on meanwhile: this answer is about a name no longer there.
    if (current.current.trim() !== name) return false;
    setError(answer);
    return answer === null;
  };

  return {
    rule,
    value,
    setValue,
    error,
    setError,
    check,
    inputProps: {
      value,
      onChange: (event) => setValue(event.currentTarget.value),
      // Left empty is said on submit, not on the way to another field (or to Cancel).
      onBlur: () => void (current.current !== '' && check()),
      onInvalid: (event) => {
        // The field says what is wrong instead of the browser's bubble.
        event.preventDefault();
        setError(ruleProblem(rule, event.currentTarget.value) ?? rule.says);
      },
      error,
      pattern: rule.pattern,
      maxLength: rule.maxLength,
      required: rule.required !== undefined,
    },
  };
}

/** A regex the service quotes ("must match pattern "^…$""): never shown. */
const QUOTED_PATTERN = /must match pattern "[^"]*"/g;

/** Plain words for a rule the service's validation names (kernel/validation.ts's describeAjvError). */
function plainRule(rule: string, fieldRule: FieldRule | undefined): string {
  if (/^must match pattern /.test(rule)) return fieldRule?.says ?? 'Has characters that are not allowed here';
  const longest = /^must NOT have more than (\d+) characters?/.exec(rule);
  if (longest) return `Use at most ${longest[1]} characters`;
  const shortest = /^must NOT have fewer than (\d+) characters?/.exec(rule);
  if (shortest) return shortest[1] === '1' ? (fieldRule?.required ?? 'Required') : `Use at least ${shortest[1]} characters`;
  if (/^is missing the required field/.test(rule)) return fieldRule?.required ?? 'Required';
  // A handler's own message ("no project with id "x" exists; …") is words already.
  const words = rule.replace(QUOTED_PATTERN, 'has characters that are not allowed');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** One refusal's field and rule: `body.name must …` (the contract's validation, nested paths under their field), `body is missing the required field "name"`, or a handler's `name: …`. */
function partOf(part: string): { field: string; rule: string } | null {
  const missing = /^body is missing the required field "([^"]+)"/.exec(part);
  if (missing) return { field: missing[1]!, rule: 'is missing the required field' };
  const validated = /^body\.([A-Za-z]\w*)[\w.]*(?::\s*|\s+)(.*)$/s.exec(part) ?? /^([A-Za-z]\w*):\s*(.*)$/s.exec(part);
  return validated ? { field: validated[1]!, rule: validated[2]! } : null;
}

/**
 * The service's refusal (400) split by the fields of the form it names: `{name: "Use only letters …"}`. What names no
 * field of the form goes under `''` (the form shows it as a whole), without any regex. Null when `error` is not a 400:
 * the mutation's notification says why.
 */
export function fieldErrorsOf(error: unknown, fields: Record<string, FieldRule | undefined>): Record<string, string> | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const errors: Record<string, string> = {};
  // The contract's validation joins its findings with "; ", each naming `body…`; a handler's message is one finding.
  for (const part of error.message.split(/; (?=body\b)/)) {
    const found = partOf(part);
    if (found && found.field in fields) errors[found.field] ??= plainRule(found.rule, fields[found.field]);
    else errors[''] ??= plainRule(part.replace(/^body\.?/, ''), undefined);
  }
  return errors;
}

/**
 * A form's refusals from the service (400), by field: `take` as the mutation's `catch` puts each on its field (a name
 * field's own error, or `of(field)` for the others) and what names no field in `form`, then rethrows so that the
 * dialog stays open. `fields` are the form's fields by the names the contract gives them. With
 * `meta: { errorsOnFields: true }` on the mutation, no notification repeats it.
 */
export function useFieldErrors(fields: Record<string, FieldRule | NameField | undefined>) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const nameFields = Object.entries(fields).filter((entry): entry is [string, NameField] => entry[1] !== undefined && 'setError' in entry[1]);
  const rules = Object.fromEntries(Object.entries(fields).map(([field, rule]) => [field, rule && 'setError' in rule ? rule.rule : rule]));
  return {
    of: (field: string): string | null => errors[field] ?? null,
    form: errors[''] ?? null,
    /** Forgets what was said (before a new submit). */
    clear: () => setErrors({}),
    take: (error: unknown): never => {
      const found = fieldErrorsOf(error, rules);
      if (found) {
        for (const [field, nameField] of nameFields) if (found[field] !== undefined) nameField.setError(found[field]);
        setErrors(found);
      }
      throw error;
    },
  };
}

/**
 * A form's change through the API whose refusal (400) the form shows on its fields (`useFieldErrors().take`), so no
 * notification repeats it; any other failure gets the notification. The answers under `refresh` are read again after.
 */
export function useFormChange<V, R>(change: (variables: V) => Promise<R>, ...refresh: string[][]) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    meta: { errorsOnFields: true },
    onSettled: () => Promise.all(refresh.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
