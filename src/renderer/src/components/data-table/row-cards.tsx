import { Card, Group, Skeleton, Stack } from '@mantine/core';
import { cardPlace, type Column } from './columns';
import classes from './data-table.module.css';
import { RowActionsLayoutContext } from './row-actions-layout';

export interface RowCardsProps<Row> {
  /** The list's accessible name, or the id of the heading that names it. */
  label?: string;
  labelledBy?: string;
  columns: readonly Column<Row>[];
  /** null while the first page loads: skeleton cards. */
  rows: readonly Row[] | null;
  rowKey: (row: Row) => string;
  busy?: boolean;
  skeletonCards?: number;
}

/**
 * A table's rows as a list of cards, for a phone: the title column on top, every other column as a
 * "header: value" line, and the row's actions as visible buttons at the foot, so nothing sits
 * off-screen behind a sideways scroll.
 */
export function RowCards<Row>({
  label,
  labelledBy,
  columns,
  rows,
  rowKey,
  busy = false,
  skeletonCards = 3,
}: RowCardsProps<Row>) {
  const placed = columns.map((column, index) => ({ column, place: cardPlace(column, index) }));
  const titles = placed.filter((item) => item.place === 'title');
  const fields = placed.filter((item) => item.place === 'field');
  const actions = placed.filter((item) => item.place === 'actions');

  return (
    <Stack
      component="ul"
      gap="sm"
      className={busy && rows !== null ? `${classes.cards} ${classes.reloading}` : classes.cards}
      aria-label={labelledBy ? undefined : label}
      aria-labelledby={labelledBy}
      aria-busy={busy || rows === null}
    >
      {rows === null
        ? Array.from({ length: skeletonCards }, (_, index) => (
            <Card key={index} component="li" withBorder padding="sm" radius="md" aria-hidden>
              <Stack gap="xs">
                <Skeleton height={16} width="60%" radius="sm" />
                <Skeleton height={12} radius="sm" />
                <Skeleton height={12} width="80%" radius="sm" />
              </Stack>
            </Card>
          ))
        : rows.map((row) => (
            <Card
              key={rowKey(row)}
              component="li"
              withBorder
              padding="sm"
              radius="md"
              className={classes.card}
            >
              <Stack gap="xs">
                {titles.map(({ column }) => (
                  <div key={column.key} className={classes.cardTitle}>
                    {column.render(row)}
                  </div>
                ))}
                {fields.length > 0 ? (
                  <dl className={classes.cardFields}>
                    {fields.map(({ column }) => (
                      <div key={column.key} className={classes.cardField}>
                        <dt>{column.header}</dt>
                        <dd>{column.render(row)}</dd>
                      </div>
                    ))}
                  </dl>
                ) : null}
                {actions.length > 0 ? (
                  <RowActionsLayoutContext.Provider value="buttons">
                    <Group gap="xs" wrap="wrap" className={classes.cardActions}>
                      {actions.map(({ column }) => (
                        <div key={column.key}>{column.render(row)}</div>
                      ))}
                    </Group>
                  </RowActionsLayoutContext.Provider>
                ) : null}
              </Stack>
            </Card>
          ))}
    </Stack>
  );
}
