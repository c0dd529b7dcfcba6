export { EventBus, silentEvents, type EventSink, type EventSource } from './event-bus.js';
export type {
  ArticleFailedEvent,
  DiskFullEvent,
  HealthCheckDoneEvent,
  ProviderExpiryEvent,
  ProviderQuotaEvent,
  RepairEvent,
  RepairStepEvent,
  RepairMethod,
  RepairBrakeEvent,
  SpoolEventName,
  SpoolEvents,
} from './spool-events.js';
