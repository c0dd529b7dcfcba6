/**
 * Article evidence, shared by the importer (import lane) and the health checker (health lane): STAT and BODY as
 * outcomes that keep an outage apart from a missing or damaged article, sampling, and the availability probe.
 */
export * from './article-evidence.js';
export * from './availability-probe.js';
