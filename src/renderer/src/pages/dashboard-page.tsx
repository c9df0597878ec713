// Placeholder until this screen is built; the router lazy-loads the default export.
export default function DashboardPage() {
  return <h1>Dashboard</h1>;
}
