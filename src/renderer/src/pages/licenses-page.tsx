// Placeholder until this screen is built; the router lazy-loads the default export.
export default function LicensesPage() {
  return <h1>Licenses</h1>;
}
