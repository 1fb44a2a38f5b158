/** Dump timestamps as the JVMs print them, turned into ISO-8601 local time when possible. */

const MONTHS: Record<string, string> = {
  Jan: '01',
  Feb: '02',
  Mar: '03',
  Apr: '04',
  May: '05',
  Jun: '06',
  Jul: '07',
  Aug: '08',
  Sep: '09',
  Oct: '10',
  Nov: '11',
  Dec: '12',
};

/**
 * `2021-09-15 17:02:03` (HotSpot), `Wed Aug 17 12:05:14 2005` (JRockit), `Tue Mar 15 14:48:56 KST 2008`.
 * Returns undefined for anything else, so callers can use it as a "looks like a dump timestamp" test.
 */
export function parseDumpTimestamp(text: string): string | undefined {
  let t = text.trim();
  const taken = /^THREAD DUMP from JVM taken at '(.*)'$/.exec(t);
  if (taken) t = taken[1]!;
  const iso = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,3}))?$/.exec(t);
  if (iso) {
    const ms = iso[7] ? '.' + iso[7].padEnd(3, '0') : '';
    return `${iso[1]}-${iso[2]}-${iso[3]}T${iso[4]}:${iso[5]}:${iso[6]}${ms}`;
  }
  const unix = /^(?:[A-Z][a-z]{2} )?([A-Z][a-z]{2}) +(\d{1,2}) (\d{2}):(\d{2}):(\d{2})(?: [A-Z]{2,5})? (\d{4})$/.exec(t);
  if (unix && MONTHS[unix[1]!]) {
    return `${unix[6]}-${MONTHS[unix[1]!]}-${unix[2]!.padStart(2, '0')}T${unix[3]}:${unix[4]}:${unix[5]}`;
  }
  return undefined;
}
