// Activation by file as app/ sees it: its page is loaded lazily by the router.
export { offlineActivationApi } from './offline-activation-endpoints';
