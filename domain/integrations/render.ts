import { renderBounded, TemplateLimitError } from './bounded-template.js';
import { parseCustomHeaders } from './custom-headers.js';
import { eventMarkdown, featureLink, type EventRow } from './event-markdown.js';

export interface OutgoingRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** What to POST for one event, and what of the configuration could not be used (the attempt is then `successWithErrors`). */
export interface RenderedDelivery {
  requests: OutgoingRequest[];
  warnings: string[];
}

type Addon = { provider: string; parameters: Record<string, string> };
type Render = (parameters: Record<string, string>, event: EventRow, publicUrl: string, warnings: string[]) => OutgoingRequest[];

const DATADOG_URL = 'https://api.datadoghq.com/api/v1/events';
const SLACK_TEXT_LIMIT = 3000;
const MARKDOWN_LINK = /\[([^\]]*)\]\(([^)\s]*)\)/g;

/** The event in Unleash's webhook shape, which is also how the events API lists it. */
export const eventPayload = (event: EventRow) => ({
  id: event.id,
  type: event.type,
  createdBy: event.createdBy,
  createdAt: event.createdAt.toISOString(),
  createdByUserId: event.createdByUserId,
  data: event.data,
  preData: event.preData,
  tags: event.tags,
  featureName: event.featureName,
  project: event.project,
  environment: event.environment,
});

function customHeaders(raw: string | undefined, warnings: string[]): Record<string, string> {
  if (!raw?.trim()) return {};
  const parsed = parseCustomHeaders(raw);
  if ('problem' in parsed) {
    warnings.push(`customHeaders cannot be sent (${parsed.problem}); the request was sent without them.`);
    return {};
  }
  return parsed.headers;
}

/**
 * Unleash JSON-escapes `eventMarkdown` when the placeholder sits inside a double-quoted string. We escape it
 * whenever the body is JSON (no contentType, or one naming json), which is where such placeholders occur, and
 * write `"` as `\u0022` so that Mustache's HTML escaping of `{{eventMarkdown}}` cannot break the JSON string.
 */
function renderTemplate(template: string, event: EventRow, publicUrl: string, jsonEscaped: boolean, warnings: string[]) {
  const payload = eventPayload(event);
  const markdown = eventMarkdown(event, publicUrl);
  const view = {
    event: payload,
    eventJson: JSON.stringify(JSON.stringify(payload)),
    eventMarkdown: jsonEscaped ? JSON.stringify(markdown).slice(1, -1).replaceAll('\\"', '\\u0022') : markdown,
  };
  try {
    return renderBounded(template, view);
  } catch (error) {
    if (error instanceof TemplateLimitError) throw error;
    warnings.push(`bodyTemplate is not a valid Mustache template (${(error as Error).message}); the default body was sent.`);
    return undefined;
  }
}

const hasTemplate = (template: string | undefined): template is string => typeof template === 'string' && template.length > 1;

const webhook: Render = (p, event, publicUrl, warnings) => {
  const contentType = p.contentType || 'application/json';
  const json = contentType.toLowerCase().includes('json');
  const templated = hasTemplate(p.bodyTemplate) ? renderTemplate(p.bodyTemplate, event, publicUrl, json, warnings) : undefined;
  const headers = {
    'content-type': contentType,
    ...(p.authorization && { authorization: p.authorization }),
    ...customHeaders(p.customHeaders, warnings),
  };
  return [{ url: p.url ?? '', headers, body: templated ?? JSON.stringify(eventPayload(event)) }];
};

const slackEscaped = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
const slackText = (markdown: string) => slackEscaped(markdown).replace(MARKDOWN_LINK, (_, text: string, url: string) => `<${url}|${text}>`);
const channelName = (name: string | undefined) => name?.trim().replace(/^#/, '') ?? '';

const slack: Render = (p, event, publicUrl, warnings) => {
  const tagged = event.tags.filter((tag) => tag.type === 'slack').map((tag) => channelName(tag.value));
  const channels = [...new Set(tagged.length > 0 ? tagged : [channelName(p.defaultChannel)])].filter((name) => name !== '');
  if (channels.length === 0) warnings.push('No channel to post to: the flag has no slack tag and defaultChannel is empty.');
  const url = featureLink(event, publicUrl);
  const headers = { 'content-type': 'application/json', ...customHeaders(p.customHeaders, warnings) };
  const message = {
    username: p.username || 'Unleash',
    icon_emoji: p.emojiIcon || ':unleash:',
    text: slackText(eventMarkdown(event, publicUrl)).slice(0, SLACK_TEXT_LIMIT),
  };
  const button = { name: 'featureToggle', text: 'Open in Unleash', type: 'button', value: 'featureToggle', style: 'primary', url };
  return channels.map((channel) => ({
    url: p.url ?? '',
    headers,
    body: JSON.stringify({ ...message, channel: `#${channel}`, ...(url && { attachments: [{ actions: [button] }] }) }),
  }));
};

const teams: Render = (p, event, publicUrl, warnings) => {
  const uri = featureLink(event, publicUrl);
  const facts = [
    { name: 'User', value: event.createdBy },
    { name: 'Action', value: event.type },
    ...(event.project ? [{ name: 'Project', value: event.project }] : []),
    ...(event.environment ? [{ name: 'Environment', value: event.environment }] : []),
  ];
  const card = {
    '@type': 'MessageCard',
    '@context': 'https://schema.org/extensions',
    themeColor: '0076D7',
    summary: 'Message',
    sections: [{ activityTitle: eventMarkdown(event, publicUrl), activitySubtitle: 'Unleash notification update', facts }],
    ...(uri && { potentialAction: [{ '@type': 'OpenUri', name: 'Go to feature', targets: [{ os: 'default', uri }] }] }),
  };
  const headers = { 'content-type': 'application/json', ...customHeaders(p.customHeaders, warnings) };
  return [{ url: p.url ?? '', headers, body: JSON.stringify(card) }];
};

const datadog: Render = (p, event, publicUrl, warnings) => {
  const templated = hasTemplate(p.bodyTemplate) ? renderTemplate(p.bodyTemplate, event, publicUrl, false, warnings) : undefined;
  const body = {
    text: templated ?? `%%% \n ${eventMarkdown(event, publicUrl)} \n %%% `,
    title: 'Unleash notification update',
    tags: event.tags.map((tag) => `${tag.type}:${tag.value}`),
    ...(p.sourceTypeName && { source_type_name: p.sourceTypeName }),
  };
  const headers = { 'content-type': 'application/json', 'dd-api-key': p.apiKey ?? '', ...customHeaders(p.customHeaders, warnings) };
  return [{ url: p.url || DATADOG_URL, headers, body: JSON.stringify(body) }];
};

const renderers = new Map<string, Render>([
  ['webhook', webhook],
  ['slack', slack],
  ['teams', teams],
  ['datadog', datadog],
]);

/** The requests an integration sends for one event. Header names are lower case; custom headers win. */
export function renderDelivery(addon: Addon, event: EventRow, publicUrl: string): RenderedDelivery {
  const render = renderers.get(addon.provider);
  if (!render) throw new Error(`No integration provider named "${addon.provider}".`);
  const warnings: string[] = [];
  const parameters = Object.fromEntries(Object.entries(addon.parameters).map(([name, value]) => [name, String(value)]));
  return { requests: render(parameters, event, publicUrl, warnings), warnings };
}
