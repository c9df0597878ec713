// Placeholder until this screen is built; the router lazy-loads the default export.
export default function AdminFeaturesPage() {
  return <h1>AdminFeatures</h1>;
}
