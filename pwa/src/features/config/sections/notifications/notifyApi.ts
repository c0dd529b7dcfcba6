import { api } from '../../../../api/client';
import type { NotifyTestInput, NotifyTestResult } from '../../../../api/types';

export const notifyApi = {
  test: (input: NotifyTestInput) => api.post<NotifyTestResult>('/notifications/test', input),
};
