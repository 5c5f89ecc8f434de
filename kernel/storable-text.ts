/**
 * Text PostgreSQL cannot store: U+0000 (in text and jsonb alike) and a lone UTF-16 surrogate (a high
 * surrogate not followed by a low one, or a low one not preceded by a high one), which jsonb refuses and
 * text silently turns into U+FFFD.
 */

const NUL = '\0';
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const SHOWN_AS_ESCAPE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|\0/g;

/** JSON text can carry these characters only as `\u0000` or `\ud800`–`\udfff` escapes: without one, no walk is needed. */
export const mayHoldUnstorableText = (json: string) => /\\u(?:0000|d[89a-f])/i.test(json);

/** The problem with one string, or undefined when PostgreSQL can store it. */
function problemOf(text: string): string | undefined {
  if (text.includes(NUL)) return 'may not contain the NUL character (\\u0000), which PostgreSQL cannot store';
  if (LONE_SURROGATE.test(text)) {
    return 'may not contain a lone UTF-16 surrogate (\\ud800–\\udfff): a high surrogate must be followed by a low one; send well-formed Unicode text';
  }
  return undefined;
}

/** A key or value with its unstorable characters written as escapes, fit for a message. */
const shown = (text: string) => text.replace(SHOWN_AS_ESCAPE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

interface Place {
  value: unknown;
  key: string | undefined;
  parent: Place | undefined;
}

const pathOf = (place: Place): string => (place.parent ? `${pathOf(place.parent)}.${shown(place.key!)}` : place.key!);

/**
 * The first string or field name under `value` that PostgreSQL cannot store, as a sentence naming it
 * (`body.constraints.0.values.1 may not …`, the same field names as validation errors); undefined when
 * every one can be stored. Walks without recursion, so that no nesting depth can overflow the stack.
 */
export function unstorableText(value: unknown, name: string): string | undefined {
  const stack: Place[] = [{ value, key: name, parent: undefined }];
  while (stack.length > 0) {
    const place = stack.pop()!;
    const current = place.value;
    if (typeof current === 'string') {
      const problem = problemOf(current);
      if (problem) return `${pathOf(place)} ${problem}.`;
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    const entries = Object.entries(current);
    for (const [key, inner] of entries) {
      const keyProblem = problemOf(key);
      if (keyProblem) return `${pathOf({ value: inner, key, parent: place })} is a field name that ${keyProblem}.`;
    }
    // Pushed last to first, so that the first field in the document is reported first.
    for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i]![1], key: entries[i]![0], parent: place });
  }
  return undefined;
}
