import { useEffect, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { describeError } from '../../../../api/client';
import { arrsApi } from './arrsApi';
import { TEST_FIELDS_REQUIRED, testInput, type ArrInstanceForm } from './arrsForm';

/** How long a test result stays on screen (spec: arr test messages clear after 5 s). */
export const TEST_MESSAGE_MS = 5_000;

export interface TestMessage {
  ok: boolean;
  text: string;
}

/** The per-instance connection test: its result, shown until it clears itself. */
export function useConnectionTest() {
  const [message, setMessage] = useState<TestMessage | undefined>();
  useEffect(() => {
    if (!message) return;
    const t = setTimeout(() => setMessage(undefined), TEST_MESSAGE_MS);
    return () => clearTimeout(t);
  }, [message]);

  const run = useMutation({
    mutationFn: arrsApi.test,
    onSuccess: (r) =>
      setMessage(
        r.success
          ? { ok: true, text: r.message || 'Connection successful' }
          : { ok: false, text: r.error || r.message || 'Connection failed' },
      ),
    onError: (err) => setMessage({ ok: false, text: describeError(err, 'Connection failed') }),
  });

  const test = (inst: ArrInstanceForm) => {
    const input = testInput(inst);
    if (!input) return setMessage({ ok: false, text: TEST_FIELDS_REQUIRED });
    setMessage(undefined);
    run.mutate(input);
  };
  return { message, test, testing: run.isPending };
}
