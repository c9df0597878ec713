import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { PlaceholderHome } from './placeholder-home';
import './placeholder-home.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <PlaceholderHome />
  </StrictMode>,
);
