/**
 * The provider form's connection test, POST /api/providers/test (docs/console-contract.md §7). A wire file: types
 * only (docs/contributing.md "Wire types").
 */

/** What the console sends: the connection fields of the form. */
export interface ProviderTestBody {
  host: string;
  port: number;
  username: string;
  password: string;
  tls: boolean;
  insecure_tls: boolean;
  /** PEM of a private CA trusted for this provider; empty when not set. */
  ca: string;
  /** Edit mode with an empty password: the server tests with the one saved for this provider. */
  id?: string;
}

export interface ProviderTestResult {
  success: boolean;
  /** Present only on failure: a message fit to show in the console. */
  error_message?: string;
}
