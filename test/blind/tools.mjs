// The tools of the blind corpus (test/blind/README.md): an office assistant's world of an inbox, an
// issue tracker, files, weather, currencies, a calendar and a CRM. Every answer is fixed data, so a
// script prints the same lines on every run; tools that write keep what they did in session state.
//   nuwa prompt --tools test/blind/tools.mjs
//   nuwa run test/blind/01-unread-digest.nuwa --tools test/blind/tools.mjs --yes

const MAILBOXES = {
  inbox: [
    { id: 'm1', from: 'ana@acme.com', subject: 'Invoice 2291 overdue', date: '2025-03-03', unread: true, labels: ['billing'] },
    { id: 'm2', from: 'ben@globex.com', subject: 'Lunch on Friday?', date: '2025-03-04', unread: false, labels: [] },
    { id: 'm3', from: 'alerts@status.io', subject: 'Outage resolved', date: '2025-03-05', unread: true, labels: ['ops'] },
    { id: 'm4', from: 'cara@acme.com', subject: 'Contract renewal', date: '2025-03-06', unread: true, labels: ['sales'] },
    { id: 'm5', from: 'dan@initech.com', subject: 'Re: Invoice 2291', date: '2025-03-07', unread: false, labels: ['billing'] },
    { id: 'm6', from: 'eve@globex.com', subject: 'Quarterly report draft', date: '2025-03-08', unread: true, labels: [] },
  ],
  archive: [
    { id: 'a1', from: 'ana@acme.com', subject: 'Invoice 2188 paid', date: '2025-01-15', unread: false, labels: ['billing'] },
    { id: 'a2', from: 'hr@acme.com', subject: 'Holiday calendar', date: '2025-01-02', unread: false, labels: [] },
  ],
  spam: [{ id: 's1', from: 'win@prize.biz', subject: 'You won!!!', date: '2025-03-01', unread: true, labels: [] }],
};

const ISSUES = {
  web: [
    { number: 101, title: 'Login button misaligned on Safari', state: 'open', labels: ['bug', 'ui'], assignee: 'kim', opened: '2025-01-12', comments: 4 },
    { number: 102, title: 'Add dark mode', state: 'open', labels: ['feature'], assignee: null, opened: '2025-02-03', comments: 11 },
    { number: 103, title: 'Broken link in footer', state: 'open', labels: ['bug'], assignee: null, opened: '2025-02-20', comments: 0 },
    { number: 104, title: 'Cookie banner covers the menu', state: 'closed', labels: ['bug', 'ui'], assignee: 'lee', opened: '2024-12-01', comments: 2 },
    { number: 105, title: 'Upgrade the bundler', state: 'open', labels: ['chore'], assignee: 'kim', opened: '2024-11-18', comments: 1 },
  ],
  api: [
    { number: 7, title: 'Rate limit returns 500 instead of 429', state: 'open', labels: ['bug'], assignee: 'raj', opened: '2025-01-30', comments: 6 },
    { number: 8, title: 'Document the search endpoint', state: 'open', labels: ['docs'], assignee: null, opened: '2025-02-14', comments: 0 },
    { number: 9, title: 'Timeouts on bulk export', state: 'open', labels: ['bug', 'perf'], assignee: null, opened: '2024-10-05', comments: 9 },
  ],
};

const FILES = {
  '/reports': [
    { name: 'sales-jan.csv', path: '/reports/sales-jan.csv', size: 182, modified: '2025-02-01' },
    { name: 'sales-feb.csv', path: '/reports/sales-feb.csv', size: 175, modified: '2025-03-01' },
    { name: 'notes.txt', path: '/reports/notes.txt', size: 64, modified: '2025-02-11' },
  ],
  '/logs': [
    { name: 'app.log', path: '/logs/app.log', size: 310, modified: '2025-03-09' },
    { name: 'old.log', path: '/logs/old.log', size: 0, modified: '2024-12-31' },
  ],
};

const CONTENTS = {
  '/reports/sales-jan.csv': 'region,product,amount\nnorth,lamp,120\nnorth,desk,340\nsouth,chair,210\neast,desk,410',
  '/reports/sales-feb.csv': 'region,product,amount\nnorth,lamp,95\nsouth,lamp,60\neast,chair,75\neast,chair,130',
  '/reports/notes.txt': 'Q1 targets: north 1000, south 800, east 900.\nReview on 2025-03-14.',
  '/logs/app.log':
    '2025-03-09 08:00:01 INFO started\n2025-03-09 08:02:13 WARN slow query 1200ms\n2025-03-09 08:05:40 ERROR payment gateway timeout\n2025-03-09 08:06:02 INFO retry ok\n2025-03-09 09:12:55 ERROR disk usage 91%\n2025-03-09 09:30:00 INFO heartbeat',
  '/logs/old.log': '',
};

const WEATHER = {
  Paris: { city: 'Paris', temperature: 14, conditions: 'cloudy', rain_chance: 60, wind_kmh: 18 },
  Oslo: { city: 'Oslo', temperature: -2, conditions: 'snow', rain_chance: 80, wind_kmh: 25 },
  Madrid: { city: 'Madrid', temperature: 21, conditions: 'sunny', rain_chance: 5, wind_kmh: 9 },
  Tokyo: { city: 'Tokyo', temperature: 12, conditions: 'rain', rain_chance: 90, wind_kmh: 30 },
};

const FORECAST_DAYS = ['2025-03-10', '2025-03-11', '2025-03-12', '2025-03-13', '2025-03-14', '2025-03-15', '2025-03-16'];
const FORECAST_SHAPE = { // per city: [high offset, low offset, rain chance] for each day
  Paris: [[0, -6, 60], [2, -5, 30], [3, -4, 10], [-1, -7, 70], [1, -5, 40], [4, -3, 5], [2, -4, 20]],
  Oslo: [[0, -7, 80], [1, -6, 50], [-2, -9, 20], [0, -8, 65], [3, -5, 30], [2, -6, 10], [-1, -8, 55]],
  Madrid: [[0, -9, 5], [2, -8, 0], [1, -9, 15], [-3, -11, 45], [0, -9, 10], [3, -7, 0], [2, -8, 5]],
  Tokyo: [[0, -5, 90], [3, -4, 40], [4, -3, 20], [2, -5, 35], [-1, -6, 75], [1, -5, 50], [5, -2, 10]],
};

const RATES_TO_USD = { USD: 1, EUR: 1.08, GBP: 1.27, JPY: 0.0067, NOK: 0.094 };

const EVENTS = {
  '2025-03-10': [
    { title: 'Standup', start: '09:00', end: '09:15', attendees: ['kim', 'lee', 'raj'] },
    { title: 'Budget review', start: '11:00', end: '12:00', attendees: ['ana', 'kim'] },
    { title: 'Interview', start: '15:30', end: '16:30', attendees: ['lee'] },
  ],
  '2025-03-11': [{ title: 'Standup', start: '09:00', end: '09:15', attendees: ['kim', 'lee', 'raj'] }],
  '2025-03-12': [],
};

const CUSTOMERS = [
  { id: 'C-100', name: 'Acme Corp', email: 'ana@acme.com', tier: 'gold', lifetime_value: 48200, last_order: '2025-02-27', region: 'north' },
  { id: 'C-101', name: 'Globex', email: 'ben@globex.com', tier: 'silver', lifetime_value: 12950, last_order: '2025-01-09', region: 'south' },
  { id: 'C-102', name: 'Initech', email: 'dan@initech.com', tier: 'bronze', lifetime_value: 3100, last_order: '2024-08-30', region: 'east' },
  { id: 'C-103', name: 'Umbrella Ltd', email: 'info@umbrella.co', tier: 'gold', lifetime_value: 61000, last_order: '2025-03-02', region: 'east' },
  { id: 'C-104', name: 'Hooli', email: 'buy@hooli.com', tier: 'silver', lifetime_value: 9800, last_order: '2024-11-15', region: 'north' },
];

const ORDERS = {
  'C-100': [{ id: 'O-1', total: 1200, date: '2025-01-20' }, { id: 'O-2', total: 860, date: '2025-02-27' }],
  'C-101': [{ id: 'O-3', total: 450, date: '2025-01-09' }],
  'C-102': [],
  'C-103': [{ id: 'O-4', total: 3000, date: '2025-02-10' }, { id: 'O-5', total: 2500, date: '2025-03-02' }, { id: 'O-6', total: 150, date: '2025-03-02' }],
  'C-104': [{ id: 'O-7', total: 990, date: '2024-11-15' }],
};

/** The next number of a session counter (sent emails, events, notes), so ids are the same on every run. */
function nextId(context, counter) {
  const next = (context.getStateValue(counter) ?? 0) + 1;
  context.setState(counter, next);
  return next;
}

const text = (description) => ({ type: 'string', description });

export default [
  {
    name: 'list_emails',
    description: 'Emails of a mailbox folder, newest last: a list of { id, from, subject, date, unread, labels }.',
    parameters: {
      type: 'object',
      properties: {
        folder: { type: 'string', enum: ['inbox', 'archive', 'spam'], default: 'inbox', description: 'Which folder' },
        unread_only: { type: 'boolean', default: false, description: 'Only emails not read yet' },
      },
    },
    returns: 'array',
    category: 'data',
    confirm: 'read',
    keywords: ['mail', 'inbox', 'messages'],
    execute: ({ folder, unread_only }) => MAILBOXES[folder].filter((mail) => !unread_only || mail.unread),
  },
  {
    name: 'send_email',
    description: 'Sends an email. Needs approval.',
    parameters: [
      { name: 'to', description: 'Recipient address', type: 'string' },
      { name: 'subject', description: 'Subject line', type: 'string' },
      { name: 'body', description: 'Plain-text body', type: 'string' },
      { name: 'cc', description: 'Copy to this address', type: 'string', required: false },
    ],
    returns: 'object',
    category: 'network',
    confirm: 'write',
    keywords: ['mail', 'reply', 'notify'],
    execute: ({ to, subject }, context) => ({ id: `sent-${nextId(context, 'sent_emails')}`, to, subject }),
  },
  {
    name: 'list_issues',
    description: 'Issues of a repository: a list of { number, title, state, labels, assignee, opened, comments }; assignee is null when nobody has it, opened is a date as YYYY-MM-DD.',
    parameters: {
      type: 'object',
      properties: {
        repo: { type: 'string', enum: ['web', 'api'], description: 'Repository name' },
        state: { type: 'string', enum: ['open', 'closed', 'all'], default: 'open', description: 'Which issues' },
      },
      required: ['repo'],
    },
    returns: 'array',
    category: 'data',
    confirm: 'read',
    keywords: ['bugs', 'tickets', 'tracker'],
    execute: ({ repo, state }) => ISSUES[repo].filter((issue) => state === 'all' || issue.state === state),
  },
  {
    name: 'close_issue',
    description: 'Closes an issue, optionally with a closing comment. Needs approval.',
    parameters: {
      type: 'object',
      properties: {
        repo: { type: 'string', enum: ['web', 'api'], description: 'Repository name' },
        number: { type: 'integer', minimum: 1, description: 'Issue number' },
        comment: { type: 'string', description: 'Comment posted when closing' },
      },
      required: ['repo', 'number'],
    },
    returns: {
      type: 'object',
      properties: { repo: { type: 'string' }, number: { type: 'integer' }, state: { type: 'string' } },
      required: ['repo', 'number', 'state'],
    },
    category: 'network',
    confirm: 'write',
    keywords: ['bugs', 'tickets', 'resolve'],
    execute: ({ repo, number }) => {
      const issue = ISSUES[repo].find((candidate) => candidate.number === number);
      if (!issue) throw new Error(`no issue #${number} in ${repo}`);
      return { repo, number, state: 'closed' };
    },
  },
  {
    name: 'list_files',
    description: 'Files of a directory: a list of { name, path, size, modified }; size in bytes.',
    parameters: [{ name: 'dir', description: 'Directory, e.g. /reports or /logs', type: 'string' }],
    returns: 'array',
    category: 'file',
    confirm: 'read',
    execute: ({ dir }) => {
      const files = FILES[dir];
      if (!files) throw new Error(`no directory ${dir} (there are ${Object.keys(FILES).join(', ')})`);
      return files;
    },
  },
  {
    name: 'read_file',
    description: 'The text of a file.',
    parameters: [{ name: 'path', description: 'Full path, e.g. /reports/notes.txt', type: 'string' }],
    returns: 'string',
    category: 'file',
    confirm: 'read',
    execute: ({ path }) => {
      const content = CONTENTS[path];
      if (content === undefined) throw new Error(`no file ${path}`);
      return content;
    },
  },
  {
    name: 'get_weather',
    description: 'Current weather in a city: { city, temperature (°C), conditions, rain_chance (%), wind_kmh }.',
    parameters: [{ name: 'city', description: 'City name, e.g. Paris', type: 'string' }],
    returns: {
      type: 'object',
      properties: { city: { type: 'string' }, temperature: { type: 'number' }, conditions: { type: 'string' }, rain_chance: { type: 'number' }, wind_kmh: { type: 'number' } },
      required: ['city', 'temperature', 'conditions', 'rain_chance', 'wind_kmh'],
    },
    category: 'data',
    execute: ({ city }) => {
      const weather = WEATHER[city];
      if (!weather) throw new Error(`no weather for ${city} (known: ${Object.keys(WEATHER).join(', ')})`);
      return weather;
    },
  },
  {
    name: 'get_forecast',
    description: 'Forecast for the next days from 2025-03-10: a list of { date, high, low, rain_chance }.',
    parameters: {
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name' },
        days: { type: 'integer', minimum: 1, maximum: 7, description: 'How many days' },
      },
      required: ['city', 'days'],
    },
    returns: 'array',
    category: 'data',
    execute: ({ city, days }) => {
      const shape = FORECAST_SHAPE[city];
      if (!shape) throw new Error(`no forecast for ${city} (known: ${Object.keys(FORECAST_SHAPE).join(', ')})`);
      const base = WEATHER[city].temperature;
      return shape.slice(0, days).map(([high, low, rain], day) => ({ date: FORECAST_DAYS[day], high: base + high, low: base + low, rain_chance: rain }));
    },
  },
  {
    name: 'convert_currency',
    description: 'Converts an amount between currencies (USD, EUR, GBP, JPY, NOK), rounded to cents.',
    parameters: [
      { name: 'amount', description: 'The amount', type: 'number' },
      { name: 'from', description: 'Currency code of the amount', type: 'string' },
      { name: 'to', description: 'Currency code wanted', type: 'string' },
    ],
    returns: 'number',
    category: 'data',
    execute: ({ amount, from, to }) => {
      for (const code of [from, to]) if (!(code in RATES_TO_USD)) throw new Error(`unknown currency ${code}`);
      return Math.round((amount * RATES_TO_USD[from]) / RATES_TO_USD[to] * 100) / 100;
    },
  },
  {
    name: 'list_events',
    description: 'Calendar events of one day: a list of { title, start, end, attendees }; times are HH:MM.',
    parameters: [{ name: 'date', description: 'The day, as YYYY-MM-DD', type: 'string' }],
    returns: 'array',
    category: 'data',
    confirm: 'read',
    execute: ({ date }) => EVENTS[date] ?? [],
  },
  {
    name: 'create_event',
    description: 'Adds an event to the calendar. Needs approval.',
    parameters: {
      type: 'object',
      properties: {
        title: text('What the event is'),
        date: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'The day, as YYYY-MM-DD' },
        start: { type: 'string', pattern: '^\\d{2}:\\d{2}$', description: 'Start time, as HH:MM' },
        minutes: { type: 'integer', minimum: 5, description: 'Duration in minutes' },
        attendees: { type: 'array', items: { type: 'string' }, description: 'Who is invited' },
      },
      required: ['title', 'date', 'start', 'minutes'],
    },
    returns: 'object',
    category: 'data',
    confirm: 'write',
    execute: ({ title, date, start }, context) => ({ id: `ev-${nextId(context, 'events_created')}`, title, date, start }),
  },
  {
    name: 'search_customers',
    description: 'Customers whose name or email contains the query (empty: all): a list of { id, name, email, tier, lifetime_value, last_order, region }.',
    parameters: [
      { name: 'query', description: 'Text to look for; an empty string lists everyone', type: 'string' },
      { name: 'tier', description: 'gold, silver or bronze', type: 'string', required: false },
    ],
    returns: 'array',
    category: 'data',
    keywords: ['crm', 'clients', 'accounts'],
    execute: ({ query, tier }) => {
      const wanted = query.toLowerCase();
      return CUSTOMERS.filter((c) => (c.name.toLowerCase().includes(wanted) || c.email.includes(wanted)) && (tier === undefined || c.tier === tier));
    },
  },
  {
    name: 'get_customer',
    description: 'One customer with its orders: { id, name, email, tier, lifetime_value, last_order, region, orders: [{ id, total, date }] }.',
    parameters: [{ name: 'id', description: 'Customer id, e.g. C-100', type: 'string' }],
    returns: 'object',
    category: 'data',
    keywords: ['crm', 'client', 'account'],
    execute: ({ id }) => {
      const customer = CUSTOMERS.find((candidate) => candidate.id === id);
      if (!customer) throw new Error(`no customer ${id}`);
      return { ...customer, orders: ORDERS[id] };
    },
  },
  {
    name: 'add_note',
    description: "Adds a note to a customer's record. Needs approval.",
    parameters: [
      { name: 'customer_id', description: 'Customer id', type: 'string' },
      { name: 'text', description: 'The note', type: 'string' },
    ],
    returns: 'object',
    category: 'data',
    confirm: 'write',
    keywords: ['crm', 'log', 'remember'],
    execute: ({ customer_id }, context) => ({ id: `note-${nextId(context, 'notes_added')}`, customer_id }),
  },
];
