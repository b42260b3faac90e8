// enum-titles.js — how the page titles the enum values the core names:
// one map for every control and summary. The values, their order and
// their titles are the core's (its parameter table's choice_titles,
// through names.js).

import { enumNames, paramInfo } from './names.js';

/** The title of value `v` of enum `which` (the value itself if it has none). */
export function enumTitle(which, v) {
  const p = paramInfo(which);
  const i = p ? p.choices.indexOf(v) : -1;
  return (i >= 0 ? p.choice_titles[i] : undefined) ?? v;
}

/**
 * [value, title] for every value of enum `which`, in the core's order;
 * `detail` adds words after some titles ({hsdp: '(shard within cp·ep)'}).
 * @param {string} which
 * @param {Record<string, string>} [detail]
 */
export function enumOptions(which, detail = {}) {
  return enumNames(which).map((v) => [v, detail[v] ? `${enumTitle(which, v)} ${detail[v]}` : enumTitle(which, v)]);
}

/**
 * A pipeline schedule as the select titles it, with interleaved 1F1B's
 * stages per GPU (`v`, which only that schedule reads) when given.
 * @param {string} schedule
 * @param {number | undefined | null} [v]
 */
export function scheduleTitle(schedule, v) {
  const title = enumTitle('schedule', schedule);
  return schedule === 'interleaved-1f1b' && v ? `${title}, ${v} stages per GPU` : title;
}
