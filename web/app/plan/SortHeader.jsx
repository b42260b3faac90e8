// SortHeader.jsx — a column header that sorts its table: a button inside a
// <th> whose aria-sort says how the rows are sorted now.

/** Props: label, title, active, desc, onSort(), cls (the column's class). */
export function SortHeader({ label, title, active, desc, onSort, cls }) {
  const sort = active ? (desc ? 'descending' : 'ascending') : 'none';
  return (
    <th scope="col" aria-sort={sort} class={cls}>
      <button type="button" class="sort" title={title} onClick={onSort}>
        {label}
        <span class="sort-mark" aria-hidden="true">{active ? (desc ? '▼' : '▲') : '↕'}</span>
      </button>
    </th>
  );
}
