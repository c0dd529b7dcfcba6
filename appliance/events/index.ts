export { EventBus, silentEvents, type EventSink, type EventSource } from './event-bus.js';
export type {
  ArticleFailedEvent,
  DiskFullEvent,
  HealthCheckDoneEvent,
  RepairEvent,
  RepairStepEvent,
  RepairMethod,
  RepairBrakeEvent,
  SpoolEventName,
  SpoolEvents,
} from './spool-events.js';
