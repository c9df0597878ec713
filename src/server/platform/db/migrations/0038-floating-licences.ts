import type { Kysely } from 'kysely';

// Floating licences. A plan is floating when `floating_seats` is set: any machine may run while
// fewer than that many hold a seat, each holding it by heartbeats for `floating_lease_minutes`, and
// borrowing it for offline use for up to `floating_borrow_days`. `floating_seats` holds the seats out
// now, one row per license and machine: a seat is held while `holds_until` (the last heartbeat plus
// the lease, or the borrow's end) is ahead, so a lapsed seat is free at the next read without a
// timer, and maintenance deletes it. `floating_peaks` keeps the most seats held at once per license
// and UTC day, raised at each checkout.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('plans').addColumn('floating_seats', 'integer').execute();
  await db.schema.alterTable('plans').addColumn('floating_lease_minutes', 'integer').execute();
  await db.schema.alterTable('plans').addColumn('floating_borrow_days', 'integer').execute();

  await db.schema
    .createTable('floating_seats')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('license_id', 'text', (column) =>
      column.notNull().references('licenses.id').onDelete('cascade'),
    )
    .addColumn('hardware_id', 'text', (column) => column.notNull())
    .addColumn('device_name', 'text')
    .addColumn('checked_out_at', 'text', (column) => column.notNull())
    .addColumn('heartbeat_at', 'text', (column) => column.notNull())
    .addColumn('holds_until', 'text', (column) => column.notNull())
    .addColumn('borrowed_until', 'text')
    .execute();
  // One seat per machine and license: two checkouts of one machine at once take one seat.
  await db.schema
    .createIndex('floating_seats_license_machine')
    .on('floating_seats')
    .columns(['license_id', 'hardware_id'])
    .unique()
    .execute();
  // Maintenance's pass over the lapsed seats.
  await db.schema
    .createIndex('floating_seats_holds_until')
    .on('floating_seats')
    .column('holds_until')
    .execute();

  await db.schema
    .createTable('floating_peaks')
    .addColumn('license_id', 'text', (column) =>
      column.notNull().references('licenses.id').onDelete('cascade'),
    )
    .addColumn('day', 'text', (column) => column.notNull())
    .addColumn('peak', 'integer', (column) => column.notNull())
    .addPrimaryKeyConstraint('floating_peaks_pk', ['license_id', 'day'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('floating_peaks').execute();
  await db.schema.dropTable('floating_seats').execute();
  await db.schema.alterTable('plans').dropColumn('floating_borrow_days').execute();
  await db.schema.alterTable('plans').dropColumn('floating_lease_minutes').execute();
  await db.schema.alterTable('plans').dropColumn('floating_seats').execute();
}
