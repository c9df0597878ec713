// Placeholder until this screen is built; the router lazy-loads the default export.
export default function AdminDashboardPage() {
  return <h1>AdminDashboard</h1>;
}
