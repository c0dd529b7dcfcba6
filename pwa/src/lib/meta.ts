/** Product facts shown in the footer. */
export const PRODUCT_NAME = 'Spool';

/** package.json's version, repository and bugs URLs, put in at build time (pwa/vite.config.ts). */
declare const __SPOOL_PROJECT__: { version: string; source: string; issues: string } | undefined;
const project = typeof __SPOOL_PROJECT__ === 'undefined' ? undefined : __SPOOL_PROJECT__;

export const APP_VERSION = project?.version ?? '0.0.1-alpha';
/** Empty when package.json names no repository: the footer then shows no link. */
export const SOURCE_URL = project?.source ?? '';
export const ISSUES_URL = project?.issues ?? '';
