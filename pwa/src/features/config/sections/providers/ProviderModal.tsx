import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useMutation } from '@tanstack/react-query';
import { describeError } from '../../../../api/client';
import { Icon } from '../../../../components/Icon';
import { fieldMessages } from '../../fieldMessages';
import { toast } from '../../../../components/toast';
import {
  canTest,
  changedFields,
  createBody,
  formErrors,
  formFromProvider,
  MISSING_FOR_TEST,
  PROVIDER_DEFAULTS,
  resetsTest,
  TEST_REQUIRED,
  testInput,
  type ProviderForm,
} from './providerForm';
import { FitFields } from './FitFields';
import { LimitsFields } from './LimitsFields';
import { providersApi, type Provider } from './providersApi';

interface Props {
  /** undefined: add a new provider. */
  provider: Provider | undefined;
  onClose: () => void;
  onSaved: () => void;
}

type TestState = { passed: boolean; message?: string; ok?: boolean };

/**
 * Add/edit provider (docs/console-contract.md §4/§5): saving needs a passed connection test; changing a connection field resets it;
 * an existing provider counts as tested until such a change. Edit sends only the changed fields.
 */
export function ProviderModal({ provider, onClose, onSaved }: Props) {
  const editing = provider !== undefined;
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const fid = useId();
  const [initial] = useState<ProviderForm>(() => (provider ? formFromProvider(provider) : PROVIDER_DEFAULTS));
  const [form, setForm] = useState<ProviderForm>(initial);
  const [test, setTest] = useState<TestState>({ passed: editing });
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const errors = formErrors(form);

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);

  const set = <K extends keyof ProviderForm>(key: K, value: ProviderForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    if (resetsTest(key)) setTest({ passed: false });
  };

  const runTest = useMutation({
    mutationFn: () => providersApi.test(testInput(form, provider?.id)),
    onSuccess: (r) =>
      setTest(
        r.success
          ? { passed: true, ok: true, message: 'Connection successful' }
          : { passed: false, ok: false, message: r.error_message || 'Connection failed' },
      ),
    onError: (err) => setTest({ passed: false, ok: false, message: describeError(err, 'Connection failed') }),
  });

  const save = useMutation({
    mutationFn: async () => {
      if (!provider) return providersApi.create(createBody(form));
      const changes = changedFields(initial, form);
      return Object.keys(changes).length > 0 ? providersApi.update(provider.id, changes) : provider;
    },
    onSuccess: () => {
      toast.success(editing ? 'Provider updated' : 'Provider added', `${form.host.trim()}:${form.port}`);
      onSaved();
    },
    // The server's field messages (a negative price, a block price without its size) say what to fix.
    // Each also shown under its field (fieldMessages).
    onError: (err) => {
      setServerErrors(fieldMessages(err));
      toast.error('Save Failed', describeError(err, 'Failed to save provider. Please try again.'));
    },
  });

  const onTest = () => {
    if (!canTest(form, editing)) return void toast.error('Missing Required Fields', MISSING_FOR_TEST);
    runTest.mutate();
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!form.host.trim() || !form.username.trim() || (!editing && !form.password)) {
      return void toast.error('Missing Required Fields', 'Host, username and password are required');
    }
    if (Object.keys(errors).length > 0) return;
    if (!test.passed) return void toast.error('Connection Test Required', TEST_REQUIRED);
    save.mutate();
  };

  const num = (v: string) => (v.trim() === '' ? Number.NaN : Number(v));
  const busy = save.isPending;
  return (
    <dialog
      ref={ref}
      className="dialog provider-modal"
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        if (!busy) onClose();
      }}
    >
      <form className="dialog__content" onSubmit={submit} noValidate>
        <h2 id={titleId} className="dialog__title">
          {editing ? 'Edit Provider' : 'Add Provider'}
        </h2>
        <fieldset className="fieldset provider-form" disabled={busy}>
          <div className="field provider-form__host">
            <label htmlFor={`${fid}-host`}>Host</label>
            <input
              id={`${fid}-host`}
              value={form.host}
              onChange={(e) => set('host', e.target.value)}
              autoComplete="off"
              placeholder="news.example.com"
              required
            />
          </div>
          <div className="field provider-form__port">
            <label htmlFor={`${fid}-port`}>Port</label>
            <input
              id={`${fid}-port`}
              type="number"
              min={1}
              max={65535}
              value={Number.isNaN(form.port) ? '' : form.port}
              onChange={(e) => set('port', num(e.target.value))}
              aria-invalid={errors.port ? true : undefined}
            />
            {errors.port && <p className="field__error">{errors.port}</p>}
          </div>
          <div className="field">
            <label htmlFor={`${fid}-user`}>Username</label>
            <input
              id={`${fid}-user`}
              value={form.username}
              onChange={(e) => set('username', e.target.value)}
              autoComplete="off"
              required
            />
          </div>
          <div className="field">
            <label htmlFor={`${fid}-pass`}>Password</label>
            <input
              id={`${fid}-pass`}
              type="password"
              value={form.password}
              onChange={(e) => set('password', e.target.value)}
              autoComplete="new-password"
              placeholder={editing ? 'Leave empty to keep the current password' : ''}
            />
          </div>
          <div className="field">
            <label htmlFor={`${fid}-conn`}>Max connections</label>
            <input
              id={`${fid}-conn`}
              type="number"
              min={1}
              max={50}
              value={Number.isNaN(form.max_connections) ? '' : form.max_connections}
              onChange={(e) => set('max_connections', num(e.target.value))}
              aria-invalid={errors.max_connections ? true : undefined}
            />
            {errors.max_connections ? (
              <p className="field__error">{errors.max_connections}</p>
            ) : (
              <p className="field__hint">1 – 50</p>
            )}
          </div>
          <div className="provider-form__switches">
            <label className="check">
              <input type="checkbox" checked={form.tls} onChange={(e) => set('tls', e.target.checked)} /> Use TLS
            </label>
            {form.tls && (
              <label className="check">
                <input
                  type="checkbox"
                  checked={form.insecure_tls}
                  onChange={(e) => set('insecure_tls', e.target.checked)}
                />{' '}
                Insecure TLS (skip certificate checks)
              </label>
            )}
          </div>
          {form.tls && (
            <div className="field">
              <label htmlFor={`${fid}-ca`}>CA certificate (PEM, optional)</label>
              <textarea
                id={`${fid}-ca`}
                rows={4}
                spellCheck={false}
                value={form.ca ?? ''}
                onChange={(e) => set('ca', e.target.value)}
                aria-invalid={errors.ca ? true : undefined}
                placeholder="-----BEGIN CERTIFICATE-----"
              />
              {errors.ca ? (
                <p className="field__error">{errors.ca}</p>
              ) : (
                <p className="field__hint">
                  For a provider whose certificate comes from a private CA: paste that CA&apos;s certificate and keep
                  Insecure TLS off.
                </p>
              )}
            </div>
          )}
          <div className="provider-form__switches">
            <label className="check">
              <input
                type="checkbox"
                checked={form.is_backup_provider}
                onChange={(e) => set('is_backup_provider', e.target.checked)}
              />{' '}
              Backup provider
            </label>
          </div>
          <LimitsFields form={form} set={set} fid={fid} errors={serverErrors} />
          <FitFields form={form} set={set} fid={fid} />
        </fieldset>
        {test.message && (
          <p className={`provider-test ${test.ok ? 'text-success' : 'text-error'}`} role="status">
            <Icon name={test.ok ? 'check' : 'alert'} size={14} /> {test.message}
          </p>
        )}
        <div className="dialog__actions">
          <button type="button" className="btn btn--secondary" onClick={onTest} disabled={runTest.isPending || busy}>
            {runTest.isPending ? 'Testing...' : 'Test Connection'}
          </button>
          <span className="provider-modal__spacer" />
          <button type="button" className="btn btn--ghost" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="btn btn--primary" disabled={busy}>
            {busy ? 'Saving...' : editing ? 'Save Provider' : 'Add Provider'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
