// Placeholder until this screen is built; the router lazy-loads the default export.
export default function AdminPaymentsPage() {
  return <h1>AdminPayments</h1>;
}
