import { arrsApi } from './arrsApi';
import { TEST_FIELDS_REQUIRED, testInput, type ArrInstanceForm } from './arrsForm';
import { useCardTest } from '../cards/useCardTest';

/** How long a test result stays on screen (spec: arr test messages clear after 5 s). */
export const TEST_MESSAGE_MS = 5_000;

/** The per-instance connection test: its result, shown until it clears itself. */
export function useConnectionTest() {
  const { message, setMessage, start, testing } = useCardTest({
    send: arrsApi.test,
    messageOf: (r) =>
      r.success
        ? { ok: true, text: r.message || 'Connection successful' }
        : { ok: false, text: r.error || r.message || 'Connection failed' },
    failText: 'Connection failed',
    clearAfterMs: TEST_MESSAGE_MS,
  });

  const test = (inst: ArrInstanceForm) => {
    const input = testInput(inst);
    if (!input) return setMessage({ ok: false, text: TEST_FIELDS_REQUIRED });
    start(input);
  };
  return { message, test, testing };
}
