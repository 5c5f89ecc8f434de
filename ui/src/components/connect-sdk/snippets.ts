// What an SDK needs to reach this service, and a first snippet per SDK for a token just created: the URLs as the
// README's "Connecting SDKs" documents them, each snippet in the shape its package documents (unleash-client,
// unleash-client-java, unleash-client-go v4, UnleashClient for Python, unleash-proxy-client, @unleash/proxy-client-react,
// @openfeature/ofrep-provider and @openfeature/ofrep-web-provider).

export type TokenKind = 'client' | 'frontend' | 'admin';

export interface SdkUrl {
  id: 'client' | 'frontend' | 'ofrep';
  label: string;
  /** Who uses it, with which token. */
  use: string;
  url: string;
}

/**
 * The URLs SDKs are given, at `origin` (where the service is reached): the client API keeps its trailing slash as the
 * server SDKs' examples do; OpenFeature's OFREP providers take the bare origin and add `/ofrep/v1/...` themselves.
 */
export function sdkUrls(origin: string): SdkUrl[] {
  return [
    { id: 'client', label: 'Client API', use: 'Server-side SDKs (Node, Java, Go, Python, .NET), with a client token', url: `${origin}/api/` },
    { id: 'frontend', label: 'Frontend API', use: 'Browser and mobile SDKs, with a frontend token', url: `${origin}/api/frontend` },
    { id: 'ofrep', label: 'OpenFeature (OFREP)', use: "OpenFeature's OFREP providers, with a client token on servers or a frontend token in browsers", url: origin },
  ];
}

export interface Snippet {
  /** Names the tab in the page (letters and dashes: it ends up in ids that ARIA attributes refer to). */
  id: string;
  /** The tab's name. */
  label: string;
  /** How to install the SDK (one command), when it is a package. */
  install?: string;
  code: string;
}

/** A double-quoted string literal, as Java, Go, Python and a shell read it (JSON's escapes are valid in each). */
const quoted = (value: string) => JSON.stringify(value);
/** A single-quoted JavaScript string literal, as the SDKs' own examples write them. */
const js = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** The snippets for a new token of `kind`, its secret and the service's URLs filled in; `appName` names the application. */
export function snippetsFor(kind: TokenKind, { origin, secret, appName }: { origin: string; secret: string; appName: string }): Snippet[] {
  const api = `${origin}/api/`;
  const frontend = `${origin}/api/frontend`;
  if (kind === 'admin') {
    return [{ id: 'curl', label: 'curl', code: `curl -H ${quoted(`Authorization: ${secret}`)} ${origin}/api/admin/projects` }];
  }
  if (kind === 'frontend') {
    return [
      {
        id: 'browser',
        label: 'Browser',
        install: 'npm install unleash-proxy-client',
        code: [
          `import { UnleashClient } from 'unleash-proxy-client';`,
          ``,
          `const unleash = new UnleashClient({`,
          `  url: ${js(frontend)},`,
          `  clientKey: ${js(secret)},`,
          `  appName: ${js(appName)},`,
          `});`,
          `unleash.on('ready', () => console.log(unleash.isEnabled('my-flag')));`,
          `unleash.start();`,
        ].join('\n'),
      },
      {
        id: 'react',
        label: 'React',
        install: 'npm install @unleash/proxy-client-react unleash-proxy-client',
        code: [
          `import { createRoot } from 'react-dom/client';`,
          `import { FlagProvider } from '@unleash/proxy-client-react';`,
          ``,
          `const config = {`,
          `  url: ${js(frontend)},`,
          `  clientKey: ${js(secret)},`,
          `  refreshInterval: 15,`,
          `  appName: ${js(appName)},`,
          `};`,
          ``,
          `createRoot(document.getElementById('root')).render(`,
          `  <FlagProvider config={config}>`,
          `    <App />`,
          `  </FlagProvider>,`,
          `);`,
        ].join('\n'),
      },
      {
        id: 'openfeature-web',
        label: 'OpenFeature (web)',
        install: 'npm install @openfeature/web-sdk @openfeature/ofrep-web-provider',
        code: [
          `import { OpenFeature } from '@openfeature/web-sdk';`,
          `import { OFREPWebProvider } from '@openfeature/ofrep-web-provider';`,
          ``,
          `await OpenFeature.setContext({ targetingKey: 'user-42' });`,
          `await OpenFeature.setProviderAndWait(new OFREPWebProvider({`,
          `  baseUrl: ${js(origin)},`,
          `  headers: [['Authorization', ${js(`Bearer ${secret}`)}]],`,
          `  pollInterval: 15000,`,
          `}));`,
          `const enabled = OpenFeature.getClient().getBooleanValue('my-flag', false);`,
        ].join('\n'),
      },
    ];
  }
  return [
    {
      id: 'node',
      label: 'Node',
      install: 'npm install unleash-client',
      code: [
        `import { initialize } from 'unleash-client';`,
        ``,
        `const unleash = initialize({`,
        `  url: ${js(api)},`,
        `  appName: ${js(appName)},`,
        `  customHeaders: { Authorization: ${js(secret)} },`,
        `});`,
        `unleash.on('synchronized', () => console.log(unleash.isEnabled('my-flag')));`,
      ].join('\n'),
    },
    {
      id: 'java',
      label: 'Java',
      install: 'io.getunleash:unleash-client-java',
      code: [
        `import io.getunleash.DefaultUnleash;`,
        `import io.getunleash.Unleash;`,
        `import io.getunleash.util.UnleashConfig;`,
        ``,
        `UnleashConfig config = UnleashConfig.builder()`,
        `    .appName(${quoted(appName)})`,
        `    .unleashAPI(${quoted(api)})`,
        `    .customHttpHeader("Authorization", ${quoted(secret)})`,
        `    .build();`,
        `Unleash unleash = new DefaultUnleash(config);`,
      ].join('\n'),
    },
    {
      id: 'go',
      label: 'Go',
      install: 'go get github.com/Unleash/unleash-client-go/v4',
      code: [
        `import (`,
        `	"net/http"`,
        ``,
        `	"github.com/Unleash/unleash-client-go/v4"`,
        `)`,
        ``,
        `func init() {`,
        `	unleash.Initialize(`,
        `		unleash.WithAppName(${quoted(appName)}),`,
        `		unleash.WithUrl(${quoted(api)}),`,
        `		unleash.WithCustomHeaders(http.Header{"Authorization": {${quoted(secret)}}}),`,
        `	)`,
        `}`,
      ].join('\n'),
    },
    {
      id: 'python',
      label: 'Python',
      install: 'pip install UnleashClient',
      code: [
        `from UnleashClient import UnleashClient`,
        ``,
        `client = UnleashClient(`,
        `    url=${quoted(api)},`,
        `    app_name=${quoted(appName)},`,
        `    custom_headers={"Authorization": ${quoted(secret)}},`,
        `)`,
        `client.initialize_client()`,
      ].join('\n'),
    },
    {
      id: 'openfeature-server',
      label: 'OpenFeature (server)',
      install: 'npm install @openfeature/server-sdk @openfeature/ofrep-provider',
      code: [
        `import { OpenFeature } from '@openfeature/server-sdk';`,
        `import { OFREPProvider } from '@openfeature/ofrep-provider';`,
        ``,
        `await OpenFeature.setProviderAndWait(new OFREPProvider({`,
        `  baseUrl: ${js(origin)},`,
        `  headers: { Authorization: ${js(`Bearer ${secret}`)} },`,
        `}));`,
        `const client = OpenFeature.getClient();`,
        `const enabled = await client.getBooleanValue('my-flag', false, { targetingKey: 'user-42' });`,
      ].join('\n'),
    },
  ];
}
