/**
 * The rows after a graph update: those held before `from` stay (the worker compared them with
 * what it sent), the update's rows follow. An append resends one or two rows, not the session.
 */
export function spliceGraphRows<Row>(held: readonly Row[], update: { readonly from: number; readonly rows: readonly Row[] }): readonly Row[] {
  if (update.from === 0) return update.rows;
  if (update.from > held.length) throw new Error(`A graph update starts at row ${update.from}, but this page holds ${held.length} rows.`);
  return [...held.slice(0, update.from), ...update.rows];
}
