#!/usr/bin/env node
// A Nuwa executable tool (TOOLS.md §9) in Node: turns a title into a URL slug.
// `slugify.mjs --tool-info` prints the schema; a call reads its arguments as JSON on stdin and
// prints one JSON result envelope on stdout.
const INFO = {
  name: 'slugify',
  description: 'Turns a title into a lowercase URL slug of letters, digits and dashes',
  parameters: {
    type: 'object',
    properties: {
      text: { type: 'string', description: 'the title' },
      maxLength: { type: 'integer', minimum: 1, default: 60, description: 'the longest slug to return' },
    },
    required: ['text'],
  },
  returns: 'string',
  confirm: 'none',
  category: 'data',
};

if (process.argv[2] === '--tool-info') {
  console.log(JSON.stringify(INFO));
} else {
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  const { text, maxLength } = JSON.parse(input);
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, maxLength)
    .replace(/-+$/, '');
  if (slug === '') console.log(JSON.stringify({ success: false, error: `"${text}" has no letters or digits to make a slug of` }));
  else console.log(JSON.stringify({ success: true, data: slug }));
}
