import { useEffect, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { describeError } from '../../../../api/client';

/** What a card's Test button found, shown under the card. */
export interface TestMessage {
  ok: boolean;
  text: string;
}

/**
 * The Test button of one card (an arr instance, a media server, a notification target): sends the card's values,
 * keeps the answer as a message, and clears the old message when a new test starts. With `clearAfterMs` the
 * message also clears itself after that long.
 */
export function useCardTest<I, R>({
  send,
  messageOf,
  failText,
  clearAfterMs,
}: {
  send: (input: I) => Promise<R>;
  messageOf: (answer: R) => TestMessage;
  failText: string;
  clearAfterMs?: number;
}) {
  const [message, setMessage] = useState<TestMessage | undefined>();
  useEffect(() => {
    if (!message || clearAfterMs === undefined) return;
    const t = setTimeout(() => setMessage(undefined), clearAfterMs);
    return () => clearTimeout(t);
  }, [message, clearAfterMs]);

  const run = useMutation({
    mutationFn: send,
    onSuccess: (answer) => setMessage(messageOf(answer)),
    onError: (err) => setMessage({ ok: false, text: describeError(err, failText) }),
  });
  const start = (input: I) => {
    setMessage(undefined);
    run.mutate(input);
  };
  return { message, setMessage, start, testing: run.isPending };
}
