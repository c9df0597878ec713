/**
 * India's states and union territories as GST numbers them: the code is the first two digits of
 * a GSTIN registered there and names the place of supply on an invoice. Only codes in use today:
 * 25 (Daman and Diu) merged into 26 in 2020, and 28 (Andhra Pradesh before Telangana was formed)
 * gave way to 37; 97 (other territory) and 99 (centre jurisdiction) are no customer's address.
 */
export interface GstState {
  /** Two digits, e.g. `27`. */
  code: string;
  name: string;
  kind: 'state' | 'union_territory';
}

const state = (code: string, name: string): GstState => ({ code, name, kind: 'state' });
const territory = (code: string, name: string): GstState => ({ code, name, kind: 'union_territory' });

/** By GST code. */
export const GST_STATES: readonly GstState[] = [
  territory('01', 'Jammu and Kashmir'),
  state('02', 'Himachal Pradesh'),
  state('03', 'Punjab'),
  territory('04', 'Chandigarh'),
  state('05', 'Uttarakhand'),
  state('06', 'Haryana'),
  territory('07', 'Delhi'),
  state('08', 'Rajasthan'),
  state('09', 'Uttar Pradesh'),
  state('10', 'Bihar'),
  state('11', 'Sikkim'),
  state('12', 'Arunachal Pradesh'),
  state('13', 'Nagaland'),
  state('14', 'Manipur'),
  state('15', 'Mizoram'),
  state('16', 'Tripura'),
  state('17', 'Meghalaya'),
  state('18', 'Assam'),
  state('19', 'West Bengal'),
  state('20', 'Jharkhand'),
  state('21', 'Odisha'),
  state('22', 'Chhattisgarh'),
  state('23', 'Madhya Pradesh'),
  state('24', 'Gujarat'),
  territory('26', 'Dadra and Nagar Haveli and Daman and Diu'),
  state('27', 'Maharashtra'),
  state('29', 'Karnataka'),
  state('30', 'Goa'),
  territory('31', 'Lakshadweep'),
  state('32', 'Kerala'),
  state('33', 'Tamil Nadu'),
  territory('34', 'Puducherry'),
  territory('35', 'Andaman and Nicobar Islands'),
  state('36', 'Telangana'),
  state('37', 'Andhra Pradesh'),
  territory('38', 'Ladakh'),
];

/** Lower case, `&` as `and`, one space between words, no dots: how typed names are compared. */
const key = (text: string) =>
  text.toLowerCase().replace(/&/g, ' and ').replace(/[.,]/g, ' ').replace(/\s+/g, ' ').trim();

/** Former names and the GST codes no longer in use, as free-text regions saved before the list. */
const FORMER: Readonly<Record<string, string>> = {
  orissa: '21',
  uttaranchal: '05',
  pondicherry: '34',
  'new delhi': '07',
  'nct of delhi': '07',
  'national capital territory of delhi': '07',
  'daman and diu': '26',
  'dadra and nagar haveli': '26',
  'andaman and nicobar': '35',
  '25': '26',
  '28': '37',
};

const byKey = new Map<string, GstState>();
for (const each of GST_STATES) {
  byKey.set(key(each.name), each);
  byKey.set(each.code, each);
}
for (const [former, code] of Object.entries(FORMER)) {
  const found = byKey.get(code);
  if (found) byKey.set(former, found);
}

/**
 * The state a region names: its name in any case, its GST code (`27` or `7`), or a former name
 * (Orissa, Pondicherry); undefined when it names none.
 */
export function findGstState(region: string): GstState | undefined {
  const typed = key(region);
  return byKey.get(/^\d$/.test(typed) ? `0${typed}` : typed);
}
