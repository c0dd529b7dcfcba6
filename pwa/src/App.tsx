import { Navigate, Route, Routes, useParams } from 'react-router-dom';
import { RequireAdmin, RequireAuth } from './auth/guards';
import { AppLayout } from './layout/AppLayout';
import { LoginPage } from './features/login/LoginPage';
import { DashboardPage } from './features/dashboard/DashboardPage';
import { QueuePage } from './features/queue/QueuePage';
import { HealthPage } from './features/health/HealthPage';
import { FilesPage } from './features/files/FilesPage';
import { StreamsPage } from './features/streams/StreamsPage';
import { UsersPage } from './features/admin/UsersPage';
import { ConfigPage } from './features/config/ConfigPage';
import { isConfigSection } from './features/config/sections';

/** /config/{section}: an unknown section falls back to webdav (docs/console-contract.md §2). */
function ConfigRoute() {
  const { section } = useParams();
  if (!isConfigSection(section)) return <Navigate to="/config/webdav" replace />;
  return <ConfigPage section={section} />;
}

/** The routes of docs/console-contract.md §2. Everything but sign-in sits in the protected layout. */
export function App() {
  return (
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route element={<RequireAuth />}>
        <Route element={<AppLayout />}>
          <Route index element={<DashboardPage />} />
          <Route path="queue" element={<QueuePage />} />
          <Route path="health" element={<HealthPage />} />
          <Route path="files" element={<FilesPage />} />
          <Route path="streams" element={<StreamsPage />} />
          <Route
            path="admin"
            element={
              <RequireAdmin>
                <UsersPage />
              </RequireAdmin>
            }
          />
          <Route path="config" element={<Navigate to="/config/webdav" replace />} />
          <Route
            path="config/:section"
            element={
              <RequireAdmin>
                <ConfigRoute />
              </RequireAdmin>
            }
          />
          <Route path="*" element={<Navigate to="/" replace />} />
        </Route>
      </Route>
    </Routes>
  );
}
