/**
 * Wire shapes of the stream-link API (docs/console-contract.md §7 "Files", docs/security.md "Stream links"). A wire
 * file: types only (the console bundles it).
 */

/** POST /api/files/links answers one; GET /api/files/links answers `{links}`. */
export interface StreamLinkJson {
  id: string;
  /** The virtual path it opens (a file, or every file under a folder). */
  path: string;
  folder: boolean;
  /** ISO time, or null for a link that lives until revoked. */
  expires_at: string | null;
  created_at: string;
  created_by: string;
  /** The link itself, starting at the configured external base URL. */
  url: string;
}
