import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/**
 * India's states and union territories as the billing form names them, by GST code
 * (shared/gst-states.ts keeps the English, which is what is saved and what the server checks).
 * Hindi writes them in Devanagari; German and Spanish keep the English names.
 */
export const GST_STATE_NAMES: Readonly<Record<string, MessageDescriptor>> = {
  '01': msg({ id: 'gstState.01', message: 'Jammu and Kashmir' }),
  '02': msg({ id: 'gstState.02', message: 'Himachal Pradesh' }),
  '03': msg({ id: 'gstState.03', message: 'Punjab' }),
  '04': msg({ id: 'gstState.04', message: 'Chandigarh' }),
  '05': msg({ id: 'gstState.05', message: 'Uttarakhand' }),
  '06': msg({ id: 'gstState.06', message: 'Haryana' }),
  '07': msg({ id: 'gstState.07', message: 'Delhi' }),
  '08': msg({ id: 'gstState.08', message: 'Rajasthan' }),
  '09': msg({ id: 'gstState.09', message: 'Uttar Pradesh' }),
  '10': msg({ id: 'gstState.10', message: 'Bihar' }),
  '11': msg({ id: 'gstState.11', message: 'Sikkim' }),
  '12': msg({ id: 'gstState.12', message: 'Arunachal Pradesh' }),
  '13': msg({ id: 'gstState.13', message: 'Nagaland' }),
  '14': msg({ id: 'gstState.14', message: 'Manipur' }),
  '15': msg({ id: 'gstState.15', message: 'Mizoram' }),
  '16': msg({ id: 'gstState.16', message: 'Tripura' }),
  '17': msg({ id: 'gstState.17', message: 'Meghalaya' }),
  '18': msg({ id: 'gstState.18', message: 'Assam' }),
  '19': msg({ id: 'gstState.19', message: 'West Bengal' }),
  '20': msg({ id: 'gstState.20', message: 'Jharkhand' }),
  '21': msg({ id: 'gstState.21', message: 'Odisha' }),
  '22': msg({ id: 'gstState.22', message: 'Chhattisgarh' }),
  '23': msg({ id: 'gstState.23', message: 'Madhya Pradesh' }),
  '24': msg({ id: 'gstState.24', message: 'Gujarat' }),
  '26': msg({ id: 'gstState.26', message: 'Dadra and Nagar Haveli and Daman and Diu' }),
  '27': msg({ id: 'gstState.27', message: 'Maharashtra' }),
  '29': msg({ id: 'gstState.29', message: 'Karnataka' }),
  '30': msg({ id: 'gstState.30', message: 'Goa' }),
  '31': msg({ id: 'gstState.31', message: 'Lakshadweep' }),
  '32': msg({ id: 'gstState.32', message: 'Kerala' }),
  '33': msg({ id: 'gstState.33', message: 'Tamil Nadu' }),
  '34': msg({ id: 'gstState.34', message: 'Puducherry' }),
  '35': msg({ id: 'gstState.35', message: 'Andaman and Nicobar Islands' }),
  '36': msg({ id: 'gstState.36', message: 'Telangana' }),
  '37': msg({ id: 'gstState.37', message: 'Andhra Pradesh' }),
  '38': msg({ id: 'gstState.38', message: 'Ladakh' }),
};
