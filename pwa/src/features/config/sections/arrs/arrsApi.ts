import { api } from '../../../../api/client';
import type { ArrTestInput, ArrTestResult } from '../../../../../../appliance/arrs/arr.types';

export const arrsApi = {
  test: (input: ArrTestInput) => api.post<ArrTestResult>('/arrs/instances/test', input),
};
