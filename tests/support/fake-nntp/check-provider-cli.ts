/**
 * Runs checkProvider in a fresh process and prints its result as JSON, so a test can set NODE_EXTRA_CA_CERTS
 * (read by Node only at start-up) the way an operator would for a provider with a private CA.
 * argv: <host> <port> <tls 0|1> <insecure_tls 0|1> [username] [password]
 */
import { checkProvider } from '../../../appliance/nntp/provider-check.js';

const [host = '', port = '0', useTls = '0', insecure = '0', username = '', password = ''] = process.argv.slice(2);
const result = await checkProvider(
  { host, port: Number(port), tls: useTls === '1', insecure_tls: insecure === '1', username, password },
  5000,
);
console.log(JSON.stringify(result));
