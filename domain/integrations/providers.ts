import type { components } from '../../generated/api.js';
import { eventTypesOffered } from '../../generated/events.js';

type AddonProvider = components['schemas']['AddonProvider'];
type Parameter = components['schemas']['AddonProviderParameter'];

const DOCS = 'https://docs.getunleash.io/reference/integrations';

const customHeaders: Parameter = {
  name: 'customHeaders',
  displayName: 'Extra HTTP headers',
  type: 'textfield',
  description: '(Optional) Extra HTTP headers to send, as a JSON object whose keys and values are strings.',
  placeholder: '{\n  "ISTIO_USER_KEY": "hunter2",\n  "SOME_OTHER_CUSTOM_HTTP_HEADER": "SOMEVALUE"\n}',
  required: false,
  sensitive: true,
};

const bodyTemplate = (description: string, placeholder: string): Parameter => ({
  name: 'bodyTemplate',
  displayName: 'Body template',
  type: 'textfield',
  description,
  placeholder,
  required: false,
  sensitive: false,
});

const slackTagType = { name: 'slack', description: 'Names a Slack channel the slack integration posts this flag’s events to.', icon: 'S' };
const datadogTagType = { name: 'datadog', description: 'Every datadog tag of a flag is sent with its events to Datadog.', icon: 'D' };

export const providers: readonly AddonProvider[] = [
  {
    name: 'webhook',
    displayName: 'Webhook',
    description: 'Posts each event to an HTTP endpoint of your choice, as JSON or through a template.',
    documentationUrl: `${DOCS}/webhook`,
    parameters: [
      {
        name: 'url',
        displayName: 'Webhook URL',
        type: 'url',
        description: '(Required) The URL each event is POSTed to; failed deliveries are retried.',
        placeholder: 'https://example.com/unleash-events',
        required: true,
        sensitive: true,
      },
      {
        name: 'contentType',
        displayName: 'Content-Type',
        type: 'text',
        description: '(Optional) The Content-Type header to send. Defaults to "application/json".',
        placeholder: 'application/json',
        required: false,
        sensitive: false,
      },
      {
        name: 'authorization',
        displayName: 'Authorization',
        type: 'text',
        description: '(Optional) The Authorization header to send. Not sent when blank.',
        required: false,
        sensitive: true,
      },
      customHeaders,
      bodyTemplate(
        '(Optional) A Mustache template for the body, over {event, eventJson, eventMarkdown}. Without one the body is the event as JSON, as the events API lists it.',
        '{\n  "event": "{{event.type}}",\n  "createdBy": "{{event.createdBy}}",\n  "featureToggle": "{{event.data.name}}",\n  "timestamp": "{{event.data.createdAt}}"\n}',
      ),
    ],
    events: [...eventTypesOffered.webhook],
  },
  {
    name: 'slack',
    displayName: 'Slack',
    description: 'Posts a message to Slack channels through an incoming webhook when a flag changes.',
    documentationUrl: `${DOCS}/slack`,
    parameters: [
      {
        name: 'url',
        displayName: 'Slack webhook URL',
        type: 'url',
        description: '(Required) The incoming-webhook URL Slack gave you.',
        placeholder: 'https://hooks.slack.com/services/…',
        required: true,
        sensitive: true,
      },
      {
        name: 'username',
        displayName: 'Username',
        type: 'text',
        description: 'The name messages are posted under. Defaults to "Unleash".',
        placeholder: 'Unleash',
        required: false,
        sensitive: false,
      },
      {
        name: 'emojiIcon',
        displayName: 'Emoji icon',
        type: 'text',
        description: 'The emoji messages are posted with. Defaults to ":unleash:".',
        placeholder: ':unleash:',
        required: false,
        sensitive: false,
      },
      {
        name: 'defaultChannel',
        displayName: 'Default channel',
        type: 'text',
        description: '(Required) The channel to post to when the flag has no slack tag naming channels.',
        placeholder: 'unleash-updates',
        required: true,
        sensitive: false,
      },
      customHeaders,
    ],
    events: [...eventTypesOffered.slack],
    tags: [slackTagType],
    tagTypes: [slackTagType],
  },
  {
    name: 'teams',
    displayName: 'Microsoft Teams',
    description: 'Posts a message card to a Microsoft Teams channel when a flag changes.',
    documentationUrl: `${DOCS}/teams`,
    parameters: [
      {
        name: 'url',
        displayName: 'Microsoft Teams webhook URL',
        type: 'url',
        description: '(Required) The incoming-webhook URL of the Teams channel.',
        required: true,
        sensitive: true,
      },
      customHeaders,
    ],
    events: [...eventTypesOffered.teams],
  },
  {
    name: 'datadog',
    displayName: 'Datadog',
    description: 'Sends flag changes to the Datadog event stream.',
    documentationUrl: `${DOCS}/datadog`,
    parameters: [
      {
        name: 'url',
        displayName: 'Datadog events URL',
        type: 'url',
        description: 'Defaults to https://api.datadoghq.com/api/v1/events; change it when your account is not on the US1 site.',
        placeholder: 'https://api.datadoghq.com/api/v1/events',
        required: false,
        sensitive: false,
      },
      {
        name: 'apiKey',
        displayName: 'Datadog API key',
        type: 'text',
        description: '(Required) An API key of your Datadog organisation.',
        placeholder: 'j96c23b0f12a6b3434a8d710110bd862',
        required: true,
        sensitive: true,
      },
      {
        name: 'sourceTypeName',
        displayName: 'Datadog source type name',
        type: 'text',
        description: '(Optional) Sent as the events’ source_type_name.',
        required: false,
        sensitive: false,
      },
      customHeaders,
      bodyTemplate(
        '(Optional) A Mustache template for the event text, over {event, eventJson, eventMarkdown}. Without one the text is a readable line about the change.',
        '%%% \n{{event.createdBy}} changed {{event.featureName}} ({{event.type}}) \n %%%',
      ),
    ],
    events: [...eventTypesOffered.datadog],
    tags: [datadogTagType],
    tagTypes: [datadogTagType],
  },
];

export const providerNamed = (name: string) => providers.find((provider) => provider.name === name);

export const isSensitive = (provider: string, parameter: string) =>
  providerNamed(provider)?.parameters.some((p) => p.name === parameter && p.sensitive) ?? false;
