import { featureKeys } from '../../lib/queryKeys';

const { all, key } = featureKeys('streams');

/** The Streams screen's query keys: the streams open now and those that ended. */
export const streamsKeys = {
  all,
  open: key('open'),
  history: key('history'),
};
