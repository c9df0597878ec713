// Placeholder until this screen is built; the router lazy-loads the default export.
export default function AdminPackagesPage() {
  return <h1>AdminPackages</h1>;
}
