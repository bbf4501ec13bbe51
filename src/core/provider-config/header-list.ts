import { DeskpilotError } from '../../shared/errors';

/** RFC 9110 token characters; anything else would make fetch throw later with a vaguer message. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Parses `name: value; name2: value2` strictly. Errors name the segment and header but
 * never echo a value, since values are often credentials (`Authorization: Bearer …`).
 */
export function parseHeaderList(text: string, source: string): Record<string, string> {
  const headers: Record<string, string> = {};
  const segments = text.split(';');
  segments.forEach((segment, index) => {
    if (segment.trim() === '') return; // a trailing or doubled ';' is harmless
    const colon = segment.indexOf(':');
    const where = `${source}, entry ${index + 1}`;
    if (colon === -1) {
      throw configError(`${where}: expected "name: value" but found no ':'. Format: "name: value; name2: value2".`);
    }
    const name = segment.slice(0, colon).trim();
    const value = segment.slice(colon + 1).trim();
    if (!HEADER_NAME.test(name)) {
      throw configError(`${where}: "${name}" is not a valid header name. Format: "name: value; name2: value2".`);
    }
    if (value === '' || /[\r\n\0]/.test(value)) {
      throw configError(`${where}: header "${name}" needs a value on one line. Format: "name: value; name2: value2".`);
    }
    headers[name] = value;
  });
  return headers;
}

function configError(message: string): DeskpilotError {
  return new DeskpilotError('PROVIDER_CONFIG', message);
}
