// Placeholder until this screen is built; the router lazy-loads the default export.
export default function SupportPage() {
  return <h1>Support</h1>;
}
