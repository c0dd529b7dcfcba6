import { featureKeys } from '../../lib/queryKeys';

const { all, key } = featureKeys('account');

/** The signed-in account's query keys: whether registration is open (sign-in screen), the current user. */
export const accountKeys = {
  all,
  registration: key('registration-status'),
  config: key('auth-config'),
  user: key('user'),
};
