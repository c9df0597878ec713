// Placeholder until this screen is built; the router lazy-loads the default export.
export default function AdminSecurityPage() {
  return <h1>AdminSecurity</h1>;
}
