// The playground page's HTML: the same document for `nuwa playground` (which writes its token into
// it) and for the static build. The app itself is assets/playground.js and .css (built by
// scripts/playground.ts); the configuration travels as JSON in a script element the app reads.
import type { PageConfig } from './protocol.js';

/**
 * What the page may load and where it may connect: only its own files and its own server. Ajv
 * compiles JSON-Schema validators into functions ('unsafe-eval'); CodeMirror writes its styles into
 * style elements. (The server adds frame-ancestors, which only a header can carry.)
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self' 'unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** The built assets, relative to the page. */
export const ASSETS = { script: 'assets/playground.js', style: 'assets/playground.css' } as const;

/** `config` as the text of a script element: `<` escaped, so no text in it can close the element. */
function scriptJson(config: PageConfig): string {
  return JSON.stringify(config).replace(/</g, '\\u003c');
}

/** The page; `assetQuery` (`?token=...`) is added to the asset URLs when the server needs it. */
export function pageHtml(config: PageConfig, assetQuery = ''): string {
  const attribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta http-equiv="Content-Security-Policy" content="${attribute(CONTENT_SECURITY_POLICY)}">
<title>Nuwa Script playground</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${attribute(ASSETS.style + assetQuery)}">
<script type="application/json" id="nuwa-config">${scriptJson(config)}</script>
<script type="module" src="${attribute(ASSETS.script + assetQuery)}"></script>
</head>
<body>
<noscript>The Nuwa Script playground needs JavaScript.</noscript>
</body>
</html>
`;
}
