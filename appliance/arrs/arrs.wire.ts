/**
 * Wire types of the arrs routes that the console shares with the server (docs/arrs.md). Pure types: nothing here
 * imports from Node, so `pwa/` can import this file as it is.
 */

export type ArrType = 'radarr' | 'sonarr';

export const ARR_TYPES: readonly ArrType[] = ['radarr', 'sonarr'];

/** One instance as GET /api/config answers it: the API key is write-only, only whether one is stored comes back. */
export interface ArrInstanceView {
  name: string;
  type: ArrType;
  url: string;
  api_key_set: boolean;
  enabled: boolean;
  /** Where that instance sees Spool's mount_path; empty when it sees it at the same path. */
  root_folder: string;
}

export interface ArrsConfigView {
  enabled: boolean;
  radarr_instances: ArrInstanceView[];
  sonarr_instances: ArrInstanceView[];
}

/** Body of POST /api/arrs/instances/test. */
export interface ArrTestInput {
  type: ArrType;
  url: string;
  /** Empty with `name` of a saved instance: the server tests with that instance's stored key. */
  api_key: string;
  name?: string;
}

/** Answer of POST /api/arrs/instances/test: `message` on success, `error` (and the same `message`) on failure. */
export interface ArrTestResult {
  success: boolean;
  message: string;
  error?: string;
}
