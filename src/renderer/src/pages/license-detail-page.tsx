// Placeholder until this screen is built; the router lazy-loads the default export.
export default function LicenseDetailPage() {
  return <h1>License details</h1>;
}
