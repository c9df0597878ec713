// Placeholder until this screen is built; the router lazy-loads the default export.
export default function PurchasePage() {
  return <h1>Purchase</h1>;
}
