import { featureKeys } from '../../lib/queryKeys';

const { all, key } = featureKeys('config');

/** The settings' query keys: the config file as the server answers it, the rclone mount's status. */
export const configKeys = {
  all,
  values: key('values'),
  mountStatus: key('rclone', 'mount', 'status'),
};
