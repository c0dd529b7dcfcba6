import { api } from '../../../../api/client';
import type { ArrTestInput, ArrTestResult } from '../../../../api/types';

export const arrsApi = {
  test: (input: ArrTestInput) => api.post<ArrTestResult>('/arrs/instances/test', input),
};
