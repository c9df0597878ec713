// Placeholder until this screen is built; the router lazy-loads the default export.
export default function AdminLicensesPage() {
  return <h1>AdminLicenses</h1>;
}
