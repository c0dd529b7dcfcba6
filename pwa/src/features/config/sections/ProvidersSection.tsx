import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { configApi } from '../../../api/config';
import { describeError } from '../../../api/client';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { Icon } from '../../../components/Icon';
import { toast } from '../../../components/toast';
import { usePoolMetrics } from '../../../lib/queries';
import { configKeys } from '../configKeys';
import type { SectionProps } from '../SectionLayout';
import { AvailabilityTable } from './providers/AvailabilityTable';
import { CostView } from './providers/CostView';
import { FitReport } from './providers/FitReport';
import { ProviderList, providerLabel } from './providers/ProviderList';
import { ProviderModal } from './providers/ProviderModal';
import { providersApi, type Provider } from './providers/providersApi';
import { providerStatus } from './providers/providerStatus';
import { providerKeys } from './providers/providerKeys';
import { quotaApi } from './providers/quotaApi';
import { moveItem } from './providers/reorder';
import './providers/providers.css';

/**
 * NNTP Providers (docs/console-contract.md §2/§4/§5/§8). Not a config-PATCH form: every change goes through /api/providers at once
 * (the pool applies it live); the list itself comes from GET /config.
 */
export function ProvidersSection({ readOnly = false }: SectionProps) {
  const queryClient = useQueryClient();
  const config = useQuery({ queryKey: configKeys.values, queryFn: configApi.get });
  const saved = (config.data?.providers ?? []) as Provider[];
  const [order, setOrder] = useState<Provider[] | undefined>();
  const providers = order ?? saved;
  const [editing, setEditing] = useState<Provider | 'new' | undefined>();
  const [deleting, setDeleting] = useState<Provider | undefined>();
  // Set in the change handler itself: a controlled checkbox whose `checked` does not change in the same event is
  // put back by React, and the mutation's pending state only arrives a tick later.
  const [flipped, setFlipped] = useState<{ id: string; enabled: boolean } | undefined>();
  // A save changes prices and candidates too: the fit report and the cost view read them.
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: configKeys.values }),
      queryClient.invalidateQueries({ queryKey: ['providers', 'fit'] }),
      queryClient.invalidateQueries({ queryKey: ['providers', 'cost'] }),
    ]);
  // The pool's view of each provider (connections it allows, breaker), polled like the dashboard's.
  const metrics = usePoolMetrics();
  const status = Object.fromEntries((metrics.data?.providers ?? []).map((m) => [m.id, providerStatus(m)]));
  const quotaQuery = useQuery({ queryKey: providerKeys.quotas, queryFn: quotaApi.get, refetchInterval: 10_000 });
  const quotas = Object.fromEntries((quotaQuery.data?.providers ?? []).map((q) => [q.id, q]));
  const reprobe = useMutation({
    mutationFn: (p: Provider) => quotaApi.reprobe(p.id),
    onSuccess: (r, p) =>
      r.probing
        ? toast.info('Re-probing', providerLabel(p))
        : toast.info('Not down', `${providerLabel(p)} is ${r.state}`),
    onError: (err) => toast.error('Re-probe Failed', describeError(err, 'Failed to re-probe provider')),
  });

  const toggle = useMutation({
    mutationFn: ({ p, enabled }: { p: Provider; enabled: boolean }) => providersApi.update(p.id, { enabled }),
    onSuccess: (_, { p, enabled }) => toast.success(`Provider ${enabled ? 'enabled' : 'disabled'}`, providerLabel(p)),
    onError: (err) => toast.error('Update Failed', describeError(err, 'Failed to update provider')),
    onSettled: async () => {
      await refresh();
      setFlipped(undefined);
    },
  });
  const remove = useMutation({
    mutationFn: (p: Provider) => providersApi.remove(p.id),
    onSuccess: (_, p) => toast.success('Provider deleted', providerLabel(p)),
    onError: (err) => toast.error('Delete Failed', describeError(err, 'Failed to delete provider')),
    onSettled: async () => {
      setDeleting(undefined);
      await refresh();
    },
  });
  const reorder = useMutation({
    mutationFn: (next: Provider[]) => providersApi.reorder(next.map((p) => p.id)),
    onSuccess: () => toast.success('Provider order saved'),
    onError: (err) => toast.error('Reorder Failed', describeError(err, 'Failed to reorder providers')),
    // The optimistic order stays until the saved list is back, so the rows do not jump.
    onSettled: async () => {
      await refresh();
      setOrder(undefined);
    },
  });

  // The switch follows the click at once; the saved list replaces it when the refetch is back.
  const shown = flipped
    ? providers.map((p) => (p.id === flipped.id ? { ...p, enabled: flipped.enabled } : p))
    : providers;

  const move = (from: number, to: number) => {
    if (to < 0 || to >= providers.length || reorder.isPending) return;
    const next = moveItem(providers, from, to);
    setOrder(next);
    reorder.mutate(next);
  };

  return (
    <section className="card config-section" aria-labelledby="config-section-title">
      <header className="config-section__header provider-section__header">
        <div>
          <h2 id="config-section-title">NNTP Providers</h2>
          <p>
            Usenet servers in priority order: the first is used first, backups only when the others miss an article.
          </p>
        </div>
        {!readOnly && (
          <button type="button" className="btn btn--primary" onClick={() => setEditing('new')}>
            <Icon name="plug" size={16} /> Add Provider
          </button>
        )}
      </header>
      {config.isPending ? (
        <p className="muted">Loading...</p>
      ) : providers.length === 0 ? (
        <p className="empty-state">No providers configured yet. Add one to start importing and streaming.</p>
      ) : (
        <ProviderList
          providers={shown}
          readOnly={readOnly}
          onEdit={(p) => setEditing(p)}
          onDelete={(p) => setDeleting(p)}
          onToggle={(p, enabled) => {
            setFlipped({ id: p.id, enabled });
            toggle.mutate({ p, enabled });
          }}
          onMove={move}
          busyId={toggle.isPending ? toggle.variables?.p.id : undefined}
          status={status}
          quotas={quotas}
          onReprobe={(p) => reprobe.mutate(p)}
        />
      )}
      {editing !== undefined && (
        <ProviderModal
          key={editing === 'new' ? 'new' : editing.id}
          provider={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(undefined)}
          onSaved={() => {
            setEditing(undefined);
            void refresh();
            void queryClient.invalidateQueries({ queryKey: providerKeys.quotas });
          }}
        />
      )}
      {providers.length > 0 && <AvailabilityTable />}
      {providers.length > 0 && <FitReport />}
      {providers.length > 0 && <CostView />}
      <ConfirmDialog
        open={deleting !== undefined}
        title="Confirm Delete"
        message={`Are you sure you want to delete "${deleting ? providerLabel(deleting) : ''}"? This action cannot be undone.`}
        confirmLabel="Delete"
        tone="danger"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(undefined)}
      />
    </section>
  );
}
