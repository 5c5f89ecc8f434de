import '@fontsource/inter/400.css';
import '@fontsource/inter/600.css';
import '@fontsource/inter/700.css';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider, Modal, Notification, createTheme, type CSSVariablesResolver } from '@mantine/core';
import { Notifications, notifications } from '@mantine/notifications';
import { MutationCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { ApiError, errorMessage, whenSessionEnds } from './api';
import { router } from './routes';
import { endSession, SESSION_KEY, sessionQuery } from './session';

const theme = createTheme({
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  headings: { fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' },
  primaryColor: 'blue',
  // Shade 8 keeps white text on filled buttons above 4.5:1 (WCAG AA); Mantine's default 6 does not.
  primaryShade: 8,
  defaultRadius: 'sm',
  components: {
    // The dialogs' and notifications' close buttons are icons: they need a name for screen readers.
    // A dialog's <header> would be a second banner landmark beside the page's (axe-core landmark-no-duplicate-banner).
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' }, attributes: { header: { role: 'presentation' } } } }),
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss' } },
      // A titled notification's message is gray 6 (3.3:1 on white); gray 7 reads at 4.5:1 or more.
      styles: { description: { color: 'var(--mantine-color-gray-7)' } },
    }),
  },
});

// Text at 4.5:1 or more (WCAG AA): secondary text (input descriptions, dimmed) and the text of light, subtle and
// outline buttons, badges, alerts and the active link use darker shades than Mantine's defaults (gray 6, shade 6).
const cssVariables: CSSVariablesResolver = (theme) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    // A field's error (its message and the refused input's text) in red 9: Mantine's red 6 reads at 3.3:1 on white.
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    ...Object.fromEntries(
      Object.keys(theme.colors).flatMap((color) => [
        [`--mantine-color-${color}-light-color`, `var(--mantine-color-${color}-9)`],
        [`--mantine-color-${color}-light-hover`, `var(--mantine-color-${color}-1)`],
        [`--mantine-color-${color}-outline`, `var(--mantine-color-${color}-9)`],
        [`--mantine-color-${color}-text`, `var(--mantine-color-${color}-9)`],
      ]),
    ),
  },
  dark: {},
});

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refusal (4xx) will not change by asking again; a failure of the service might.
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
      staleTime: 10_000,
    },
  },
  // Every failed change says why in a notification: a 403 shows the service's message naming the permission.
  mutationCache: new MutationCache({
    onError: (error, _variables, _context, mutation) => {
      if (error instanceof ApiError && error.status === 401) return;
      if (error instanceof ApiError && error.status === 400 && mutation.meta?.errorsOnFields) return;
      // Refused: the user's permissions changed since they were read; read them again so that the page stops offering it.
      if (error instanceof ApiError && error.status === 403) void queryClient.invalidateQueries({ queryKey: SESSION_KEY });
      notifications.show({ color: 'red', title: 'That did not work', message: errorMessage(error), autoClose: 8000 });
    },
  }),
});

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: {
      /** The form shows a refusal (400) on the field it names, in plain words: no notification then. */
      errorsOnFields?: boolean;
    };
  }
}

whenSessionEnds(() => endSession(queryClient));

// Who is signed in is asked at once, while the router loads the page's code; the page's own requests then start
// without waiting for the answer (RequireSession in components/layout.tsx).
void queryClient.prefetchQuery(sessionQuery);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={cssVariables}>
      {/* Bottom right: a notification covers neither the header's actions (Sign out) nor a page's title and its buttons. */}
      <Notifications position="bottom-right" />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
