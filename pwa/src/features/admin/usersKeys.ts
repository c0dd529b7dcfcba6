import { featureKeys } from '../../lib/queryKeys';

const { all, key } = featureKeys('users');

/** The Users screen's query keys. */
export const usersKeys = {
  all,
  list: key('list'),
};
