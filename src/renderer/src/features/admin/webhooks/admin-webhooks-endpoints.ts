import { t } from '@lingui/core/macro';
import type { Paged } from '../../../../../shared/api/paging';
import type {
  CreateWebhookEndpointBody,
  UpdateWebhookEndpointBody,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookEventTypeList,
} from '../../../../../shared/api/webhooks';
import { pathWith } from '../../../../../shared/routes';
import { adminWebhooksApiPaths } from '../../../../../shared/api-paths';
import type { ListParams } from '../../../components/data-table/list-query';
import { api } from '../../../lib/api';
import { recordEndpointArea } from '../../../lib/api-actions';

/**
 * The fallbacks of the administrators' webhook calls, shown when the server gives no
 * message, read when shown (a getter) so it is in the language shown then.
 */
export const adminWebhookMessages = {
  get fetchEndpointsFailed() {
    return t`Failed to fetch the webhook endpoints`;
  },
  get fetchEventTypesFailed() {
    return t`Failed to fetch the webhook events`;
  },
  get createEndpointFailed() {
    return t`Failed to add the endpoint`;
  },
  get updateEndpointFailed() {
    return t`Failed to save the endpoint`;
  },
  get deleteEndpointFailed() {
    return t`Failed to delete the endpoint`;
  },
  get rotateSecretFailed() {
    return t`Failed to rotate the signing secret`;
  },
  get sendTestFailed() {
    return t`Failed to send a test event`;
  },
  get fetchDeliveriesFailed() {
    return t`Failed to fetch the deliveries`;
  },
  get fetchDeliveryFailed() {
    return t`Failed to fetch the delivery`;
  },
  get redeliverFailed() {
    return t`Failed to send the delivery again`;
  },
};

const paths = adminWebhooksApiPaths;

// Deliveries change on their own (the worker sends and retries), so their lists and details are
// read again whenever a screen shows them, and every write here invalidates them.
const ENDPOINT = 'AdminWebhookEndpoint' as const;
const DELIVERY = 'AdminWebhookDelivery' as const;

/** Administrators: webhook endpoints, their secrets, their delivery log and redeliveries. */
export const adminWebhooksApi = api.injectEndpoints({
  endpoints: (build) => {
    const endpoints = {
      listWebhookEventTypes: build.query<WebhookEventTypeList['data'], void>({
        query: () => ({ url: paths.eventTypes }),
        transformResponse: (answer: WebhookEventTypeList) => answer.data,
        extraOptions: {
          get fallback() {
            return adminWebhookMessages.fetchEventTypesFailed;
          },
        },
      }),
      listWebhookEndpoints: build.query<Paged<WebhookEndpoint>, ListParams>({
        query: (params) => ({ url: paths.endpoints, params }),
        extraOptions: {
          get fallback() {
            return adminWebhookMessages.fetchEndpointsFailed;
          },
        },
        providesTags: [ENDPOINT],
      }),
      createWebhookEndpoint: build.mutation<WebhookEndpointWithSecret, CreateWebhookEndpointBody>({
        query: (body) => ({ url: paths.endpoints, method: 'POST', body }),
        extraOptions: {
          get fallback() {
            return adminWebhookMessages.createEndpointFailed;
          },
        },
        invalidatesTags: [ENDPOINT, 'SecurityEvent'],
      }),
      updateWebhookEndpoint: build.mutation<
        WebhookEndpoint,
        { id: string; changes: UpdateWebhookEndpointBody }
      >({
        query: ({ id, changes }) => ({
          url: pathWith(paths.endpoint, { endpointId: id }),
          method: 'PATCH',
          body: changes,
        }),
        extraOptions: {
          get fallback() {
            return adminWebhookMessages.updateEndpointFailed;
          },
        },
        invalidatesTags: [ENDPOINT, DELIVERY, 'SecurityEvent'],
      }),
      deleteWebhookEndpoint: build.mutation<void, string>({
        query: (id) => ({ url: pathWith(paths.endpoint, { endpointId: id }), method: 'DELETE' }),
        extraOptions: {
          get fallback() {
            return adminWebhookMessages.deleteEndpointFailed;
          },
        },
        invalidatesTags: [ENDPOINT, DELIVERY, 'SecurityEvent'],
      }),
      rotateWebhookSecret: build.mutation<WebhookEndpointWithSecret, string>({
        query: (id) => ({ url: pathWith(paths.rotateSecret, { endpointId: id }), method: 'POST', body: {} }),
        extraOptions: {
          get fallback() {
            return adminWebhookMessages.rotateSecretFailed;
          },
        },
        invalidatesTags: [ENDPOINT, 'SecurityEvent'],
      }),
      sendTestWebhook: build.mutation<WebhookDeliveryDetail, string>({
        query: (id) => ({ url: pathWith(paths.test, { endpointId: id }), method: 'POST', body: {} }),
        extraOptions: {
          get fallback() {
            return adminWebhookMessages.sendTestFailed;
          },
        },
        invalidatesTags: [DELIVERY],
      }),
      listWebhookDeliveries: build.query<Paged<WebhookDelivery>, { endpointId: string } & ListParams>({
        query: ({ endpointId, ...params }) => ({ url: pathWith(paths.deliveries, { endpointId }), params }),
        extraOptions: {
          get fallback() {
            return adminWebhookMessages.fetchDeliveriesFailed;
          },
        },
        providesTags: [DELIVERY],
      }),
      getWebhookDelivery: build.query<WebhookDeliveryDetail, string>({
        query: (id) => ({ url: pathWith(paths.delivery, { deliveryId: id }) }),
        extraOptions: {
          get fallback() {
            return adminWebhookMessages.fetchDeliveryFailed;
          },
        },
        providesTags: [DELIVERY],
      }),
      redeliverWebhook: build.mutation<WebhookDeliveryDetail, string>({
        query: (id) => ({ url: pathWith(paths.redeliver, { deliveryId: id }), method: 'POST', body: {} }),
        extraOptions: {
          get fallback() {
            return adminWebhookMessages.redeliverFailed;
          },
        },
        invalidatesTags: [DELIVERY, 'SecurityEvent'],
      }),
    };
    // The admin area: working here keeps the session alive like the other admin screens.
    recordEndpointArea('admin', Object.keys(endpoints));
    return endpoints;
  },
});

export const {
  useListWebhookEventTypesQuery,
  useListWebhookEndpointsQuery,
  useCreateWebhookEndpointMutation,
  useUpdateWebhookEndpointMutation,
  useDeleteWebhookEndpointMutation,
  useRotateWebhookSecretMutation,
  useSendTestWebhookMutation,
  useListWebhookDeliveriesQuery,
  useGetWebhookDeliveryQuery,
  useRedeliverWebhookMutation,
} = adminWebhooksApi;
