// Placeholder until this screen is built; the router lazy-loads the default export.
export default function ProfilePage() {
  return <h1>Profile</h1>;
}
