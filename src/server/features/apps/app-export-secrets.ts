import type { ExportedMenu } from '../../../shared/api/app-transfer.schema';

/**
 * Names of headers, query parameters and payload fields whose values are credentials (`Authorization`,
 * `X-Api-Key`, `X-Auth-Token`, `api_key`, `access_token`, `client_secret`, `password`, `signature`, `sig`...):
 * their values are blanked in an export. Wide on purpose: a value blanked by mistake is listed and typed again,
 * a credential kept is handed to whoever receives the file.
 */
const SECRET_NAME = /key|token|secret|auth|passw(or)?d|pwd|signature|^sig$|cookie|credential/i;
/** A value that is only a template tag (`{{ vars.apiKey }}`) says where a secret is kept and holds none: it stays. */
const ONLY_TAG = /^\s*\{\{[^{}]*\}\}\s*$/;
const isSecret = (name: string, value: string) => SECRET_NAME.test(name) && value.trim() !== '' && !ONLY_TAG.test(value);
/** `postgres://user:pass@host/db`: the password between the user and `@`. */
const URL_PASSWORD = /^([a-z][a-z0-9+.-]*:\/\/[^:/@\s]*):[^@/\s]+@/i;
/** `https://user:pass@host/...` or `https://KEY@host/...`: the whole userinfo, which holds a password or a key. */
const URL_USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)[^/?#@\s]+@/i;
/** `"password": "..."` in a JSON payload (the name and value as JSON strings, escapes included). */
const JSON_FIELD = /"((?:[^"\\]|\\.)*)"(\s*:\s*)"((?:[^"\\]|\\.)*)"/g;
/** `<password>...</password>` in an XML payload. */
const XML_FIELD = /<([A-Za-z_][\w.:-]*)>([^<]*)<\/\1>/g;

/** `a=1&api_key=XYZ` with the credentials' values blanked (`a=1&api_key=`); names are compared decoded. */
function removeFormSecrets(form: string): string {
  return form
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      if (eq < 0) return part;
      const name = part.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A malformed escape: the name is compared as written.
      }
      return isSecret(decoded, part.slice(eq + 1)) ? `${name}=` : part;
    })
    .join('&');
}

/** A Rest API URL without its userinfo and with its credential query parameters blanked. */
function removeUrlSecrets(url: string): string {
  const withoutUser = url.replace(URL_USERINFO, '$1');
  const query = withoutUser.indexOf('?');
  if (query < 0) return withoutUser;
  const fragment = withoutUser.indexOf('#', query);
  const end = fragment < 0 ? withoutUser.length : fragment;
  return `${withoutUser.slice(0, query + 1)}${removeFormSecrets(withoutUser.slice(query + 1, end))}${withoutUser.slice(end)}`;
}

/** A request body with its credential fields blanked: JSON and XML fields, and form fields for a form body. */
function removePayloadSecrets(payload: string, contentType: string): string {
  const blanked = payload
    .replace(JSON_FIELD, (field, name: string, colon: string, value: string) => (isSecret(name, value) ? `"${name}"${colon}""` : field))
    .replace(XML_FIELD, (field, name: string, value: string) => (isSecret(name, value) ? `<${name}></${name}>` : field));
  return contentType === 'application/x-www-form-urlencoded' ? removeFormSecrets(blanked) : blanked;
}

/** A menu's secrets blanked, and the paths (in the file) where one was. */
export function removeSecrets(menu: ExportedMenu, at: string, removed: string[]): ExportedMenu {
  const actions = menu.actions.map((action, i) => {
    const path = `${at}.actions.${i}.code`;
    if (action.inheritsPlugin === 'restapi') {
      const code = { ...action.code };
      const url = removeUrlSecrets(code.url);
      if (url !== code.url) {
        code.url = url;
        removed.push(`${path}.url`);
      }
      if (code.basicAuth?.password) {
        code.basicAuth = { ...code.basicAuth, password: '' };
        removed.push(`${path}.basicAuth.password`);
      }
      code.headers = code.headers.map((header, h) => {
        if (!isSecret(header.key, header.value)) return header;
        removed.push(`${path}.headers.${h}.value`);
        return { ...header, value: '' };
      });
      const payload = removePayloadSecrets(code.payload, code.contentType);
      if (payload !== code.payload) {
        code.payload = payload;
        removed.push(`${path}.payload`);
      }
      return { ...action, code };
    }
    if (action.inheritsPlugin === 'dbaccess') {
      const code = { ...action.code };
      if (code.dbpass) {
        code.dbpass = '';
        removed.push(`${path}.dbpass`);
      }
      if (URL_PASSWORD.test(code.dburl)) {
        code.dburl = code.dburl.replace(URL_PASSWORD, '$1@');
        removed.push(`${path}.dburl`);
      }
      return { ...action, code };
    }
    return action;
  });
  return { ...menu, actions };
}
