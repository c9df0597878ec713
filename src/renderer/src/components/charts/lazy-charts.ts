import { lazy } from 'react';

// The charts library (recharts underneath) is the heaviest part of a dashboard: it loads
// with the first chart, after the numbers are already on screen.
export const RevenueBarChart = lazy(() => import('./revenue-bar-chart'));
export const StatusDonutChart = lazy(() => import('./status-donut-chart'));
export const SeverityBars = lazy(() => import('./severity-bars'));
