// Placeholder until this screen is built; the router lazy-loads the default export.
export default function AdminUsersPage() {
  return <h1>AdminUsers</h1>;
}
