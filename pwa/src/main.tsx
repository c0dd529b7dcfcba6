// The shared styles load first so a screen's own stylesheet (imported by its component) can refine them.
import './styles/index.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { App } from './App';
import { createQueryClient } from './lib/queryClient';
import { keepLastKnown } from './lib/lastKnown';
import { initAuth } from './auth/authStore';
import { ToastViewport } from './components/ToastViewport';
import { UpdatePrompt } from './layout/UpdatePrompt';

const queryClient = createQueryClient();
keepLastKnown(queryClient);
void initAuth();

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
      <ToastViewport />
      <UpdatePrompt />
    </QueryClientProvider>
  </StrictMode>,
);
