/**
 * How many parts (segments) an SMS text is sent as, and in which encoding: what it costs. GSM-7 carries 160
 * characters in one part and 153 a part once split (an extension character such as `{`, `€` or `[` takes two); one
 * character outside GSM-7 (an accented letter other than the few GSM-7 has, an emoji) sends the whole text as
 * UCS-2, 70 in one part and 67 a part once split. Counted by Twilio's segment calculator.
 */
import { SegmentedMessage } from 'sms-segments-calculator';

export interface SmsParts {
  encoding: 'GSM-7' | 'UCS-2';
  parts: number;
  /** Characters as the encoding counts them (an extension character counts two in GSM-7). */
  length: number;
  /** The characters that made the text UCS-2 (none for GSM-7). */
  nonGsm: string[];
}

/** @example countSmsParts('Dial *920*12# for our offers') // { encoding: 'GSM-7', parts: 1, length: 28, nonGsm: [] } */
export function countSmsParts(text: string): SmsParts {
  const message = new SegmentedMessage(text, 'auto');
  const encoding = message.encodingName === 'UCS-2' ? 'UCS-2' : 'GSM-7';
  return {
    encoding,
    parts: text === '' ? 0 : message.segmentsCount,
    length: encoding === 'UCS-2' ? message.numberOfUnicodeScalars : message.numberOfCharacters,
    nonGsm: encoding === 'UCS-2' ? message.getNonGsmCharacters() : [],
  };
}
