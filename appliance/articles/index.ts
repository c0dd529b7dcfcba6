/**
 * Article evidence, shared by the importer (import lane), the health checker (health lane) and the repair (repair
 * lane): STAT and BODY as outcomes that keep an outage apart from a missing or damaged article, sampling, the
 * availability probe, and the one reader of a laid-out file's bytes (`LayoutBytes`, the lane a parameter).
 */
export * from './article-evidence.js';
export * from './availability-probe.js';
export * from './layout-bytes.js';
