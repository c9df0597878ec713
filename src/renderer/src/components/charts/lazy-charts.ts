import { lazy } from 'react';

const loadRevenueBarChart = () => import('./revenue-bar-chart');
const loadStatusDonutChart = () => import('./status-donut-chart');
const loadSeverityBars = () => import('./severity-bars');
const loadTrialsChart = () => import('./trials-chart');

// The charts library (recharts underneath) is the heaviest part of a dashboard: it loads
// with the first chart, after the numbers are already on screen.
export const RevenueBarChart = lazy(loadRevenueBarChart);
export const StatusDonutChart = lazy(loadStatusDonutChart);
export const SeverityBars = lazy(loadSeverityBars);
export const TrialsChart = lazy(loadTrialsChart);

/**
 * Starts loading the charts while the figures are still on their way, so the charts do not wait
 * for the answer before they start to download (the browser fetches each module once).
 */
export const preloadCharts = (): void => {
  void Promise.all([
    loadRevenueBarChart(),
    loadStatusDonutChart(),
    loadSeverityBars(),
    loadTrialsChart(),
  ]).catch(() => undefined);
};
