// The script kept in the page's URL fragment, so that a link shares it: `#code=` and the script's
// UTF-8 bytes in base64url. The fragment never reaches the server (browsers do not send it).

const PREFIX = '#code=';

/** The fragment that holds `source`. */
export function fragmentFor(source: string): string {
  const bytes = new TextEncoder().encode(source);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return PREFIX + btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The script a fragment holds; undefined when it holds none, or nothing readable. */
export function scriptFrom(fragment: string): string | undefined {
  if (!fragment.startsWith(PREFIX)) return undefined;
  const text = fragment.slice(PREFIX.length).replace(/-/g, '+').replace(/_/g, '/');
  try {
    const binary = atob(text + '='.repeat((4 - (text.length % 4)) % 4));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
