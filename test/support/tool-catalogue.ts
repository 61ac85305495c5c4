// A realistic catalogue of 56 tools, as an agent host with files, mail, calendars, payments, code and
// data tools would register them: the fixture the search tests rank against. Descriptions are written
// the way tool authors write them (not tuned to the queries); some tools have keywords, most do not.
import { ToolRegistry } from '../../src/tools/registry.js';
import type { ToolCategory, ToolDefinition, ToolSource } from '../../src/tools/types.js';

interface Entry {
  name: string;
  description: string;
  category: ToolCategory;
  keywords?: string[];
  source?: ToolSource;
  parameters?: Record<string, string>;
}

const ENTRIES: Entry[] = [
  // files
  { name: 'read_file', description: 'Read the contents of a text file from the workspace.', category: 'file', parameters: { path: 'Path relative to the workspace' } },
  { name: 'write_file', description: 'Write text to a file, creating it or replacing its contents.', category: 'file', parameters: { path: 'Path of the file', content: 'Text to write' } },
  { name: 'append_file', description: 'Append text to the end of an existing file.', category: 'file' },
  { name: 'delete_file', description: 'Delete a file from the workspace permanently.', category: 'file', keywords: ['remove', 'rm'] },
  { name: 'list_directory', description: 'List the files and folders inside a directory.', category: 'file', keywords: ['ls', 'folder'] },
  { name: 'move_file', description: 'Move or rename a file.', category: 'file', keywords: ['mv', 'rename'] },
  { name: 'search_files', description: 'Find files whose names match a glob pattern.', category: 'file', keywords: ['glob', 'find'] },
  { name: 'grep', description: 'Search file contents for lines matching a regular expression.', category: 'file', keywords: ['regex'] },
  { name: 'zip_archive', description: 'Compress files into a zip archive.', category: 'file', keywords: ['compress'] },
  { name: 'file_info', description: 'Size, owner and modification time of a file.', category: 'file', keywords: ['stat'] },
  // web and network
  { name: 'http_get', description: 'Fetch a URL with an HTTP GET request and return the response body.', category: 'network', keywords: ['download', 'fetch'] },
  { name: 'http_post', description: 'Send JSON to a URL with an HTTP POST request.', category: 'network' },
  { name: 'web_search', description: 'Search the web and return the top results with titles and links.', category: 'network', keywords: ['google', 'internet'] },
  { name: 'scrape_page', description: 'Extract the readable text of a web page.', category: 'network', keywords: ['crawl'] },
  { name: 'dns_lookup', description: 'Resolve a domain name to its IP addresses.', category: 'network' },
  { name: 'ping_host', description: 'Check whether a host answers and how long it takes.', category: 'network', keywords: ['latency'] },
  // communication
  { name: 'send_email', description: 'Send an email message to one or more recipients.', category: 'network', keywords: ['mail', 'smtp'], parameters: { to: 'Recipient addresses', subject: 'Subject line', body: 'Message text' } },
  { name: 'read_inbox', description: 'List the most recent messages in the mailbox.', category: 'network', keywords: ['email', 'mail'] },
  { name: 'send_sms', description: 'Send a text message to a phone number.', category: 'network', keywords: ['phone'] },
  { name: 'post_slack_message', description: 'Post a message to a Slack channel.', category: 'network', keywords: ['chat'], source: 'mcp' },
  { name: 'create_ticket', description: 'Open an issue in the bug tracker with a title and description.', category: 'network', keywords: ['jira', 'issue', 'bug'], source: 'mcp' },
  // calendar and people
  { name: 'list_calendar_events', description: 'List calendar events between two dates.', category: 'data', keywords: ['schedule', 'agenda'] },
  { name: 'create_calendar_event', description: 'Schedule a meeting or event on the calendar.', category: 'data', keywords: ['meeting', 'invite'] },
  { name: 'cancel_calendar_event', description: 'Cancel a calendar event and notify its attendees.', category: 'data' },
  { name: 'find_free_slot', description: 'Find a time when all the given people are available.', category: 'data', keywords: ['availability'] },
  { name: 'lookup_contact', description: 'Find a person in the address book by name and return their details.', category: 'data', keywords: ['phone', 'email address'] },
  // weather, maps, time
  { name: 'get_weather', description: 'Current weather conditions for a city: temperature, wind and rain.', category: 'network', keywords: ['forecast', 'temperature'], parameters: { city: 'City name' } },
  { name: 'get_forecast', description: 'Weather forecast for the next days in a city.', category: 'network' },
  { name: 'geocode_address', description: 'Turn a street address into latitude and longitude.', category: 'network', keywords: ['maps', 'coordinates'] },
  { name: 'route_directions', description: 'Driving or walking directions between two places.', category: 'network', keywords: ['maps', 'navigation'] },
  { name: 'current_time', description: 'The current date and time in a time zone.', category: 'system', keywords: ['clock', 'date'] },
  { name: 'convert_timezone', description: 'Convert a time from one time zone to another.', category: 'data' },
  // finance
  { name: 'get_stock_price', description: 'Latest trading price of a stock by its ticker symbol.', category: 'network', keywords: ['quote', 'market'], parameters: { symbol: 'Ticker, e.g. AAPL' } },
  { name: 'place_order', description: 'Buy or sell shares of a stock.', category: 'network', keywords: ['trade', 'broker'] },
  { name: 'convert_currency', description: 'Convert an amount between currencies at today’s exchange rate.', category: 'data', keywords: ['exchange rate', 'fx'], parameters: { amount: 'Amount to convert', from: 'Currency code', to: 'Currency code' } },
  { name: 'create_invoice', description: 'Create an invoice for a customer with line items.', category: 'data', keywords: ['billing'] },
  { name: 'refund_payment', description: 'Refund a card payment fully or partly.', category: 'network', keywords: ['stripe', 'chargeback'] },
  { name: 'get_account_balance', description: 'Balance of a bank account.', category: 'network' },
  // data
  { name: 'query_database', description: 'Run a read-only SQL query against the analytics database.', category: 'data', keywords: ['sql', 'select'], source: 'executable' },
  { name: 'insert_rows', description: 'Insert rows into a database table.', category: 'data', keywords: ['sql'], source: 'executable' },
  { name: 'parse_csv', description: 'Parse CSV text into a list of records.', category: 'data', keywords: ['spreadsheet'] },
  { name: 'json_query', description: 'Select values from JSON with a JSONPath expression.', category: 'data' },
  { name: 'chart_data', description: 'Draw a bar, line or pie chart from a table of numbers.', category: 'data', keywords: ['plot', 'graph'] },
  { name: 'summarize_table', description: 'Count, mean, min and max of every numeric column of a table.', category: 'data', keywords: ['statistics'] },
  // language models and text
  { name: 'summarize_text', description: 'Summarize a long text in a few sentences.', category: 'llm', keywords: ['tldr'] },
  { name: 'translate_text', description: 'Translate text into another language.', category: 'llm', keywords: ['language'] },
  { name: 'classify_sentiment', description: 'Tell whether a text is positive, negative or neutral.', category: 'llm' },
  { name: 'extract_entities', description: 'Find the people, places and organisations named in a text.', category: 'llm', keywords: ['ner'] },
  { name: 'generate_image', description: 'Create an image from a text prompt.', category: 'llm', keywords: ['picture', 'draw'] },
  { name: 'transcribe_audio', description: 'Turn speech in an audio file into text.', category: 'llm', keywords: ['speech to text'] },
  // system and code
  { name: 'run_shell_command', description: 'Run a shell command and return its output.', category: 'system', keywords: ['bash', 'terminal'] },
  { name: 'list_processes', description: 'List the running processes with their CPU and memory use.', category: 'system', keywords: ['ps', 'top'] },
  { name: 'git_commit', description: 'Commit the staged changes of a git repository with a message.', category: 'system', keywords: ['version control'], source: 'module' },
  { name: 'git_diff', description: 'Show the uncommitted changes of a git repository.', category: 'system', source: 'module' },
  { name: 'run_tests', description: 'Run the project test suite and report failures.', category: 'system', keywords: ['ci', 'unit tests'], source: 'module' },
  { name: 'deploy_service', description: 'Deploy a service to production.', category: 'system', keywords: ['release', 'ship'] },
];

export const CATALOGUE_SIZE = ENTRIES.length;

export function catalogueDefinitions(): ToolDefinition[] {
  return ENTRIES.map((entry) => ({
    name: entry.name,
    description: entry.description,
    category: entry.category,
    keywords: entry.keywords,
    source: entry.source,
    parameters: {
      type: 'object',
      properties: Object.fromEntries(Object.entries(entry.parameters ?? {}).map(([name, description]) => [name, { type: 'string', description }])),
    },
    returns: 'any',
    execute: () => null,
  }));
}

export function catalogueRegistry(options: ConstructorParameters<typeof ToolRegistry>[0] = {}): ToolRegistry {
  const registry = new ToolRegistry(options);
  for (const definition of catalogueDefinitions()) registry.register(definition);
  return registry;
}

// A deterministic stand-in for a host's embedding model: words are mapped to concepts through a small
// synonym table (what an embedding model learns), and a text becomes its bag of concepts plus its
// words' letter trigrams (as subword models have, which puts a word with a typo near the right one),
// hashed into dimensions of their own.
const CONCEPTS: Record<string, string[]> = {
  email: ['email', 'mail', 'letter', 'correspondence', 'inbox', 'mailbox', 'recipient'],
  money: ['money', 'currency', 'currencies', 'cash', 'dollar', 'euro', 'yen', 'exchange'],
  weather: ['weather', 'rain', 'umbrella', 'sunny', 'temperature', 'wind', 'forecast', 'cold', 'hot'],
  meeting: ['meeting', 'calendar', 'event', 'appointment', 'schedule', 'book', 'sync', 'invite'],
  remove: ['delete', 'remove', 'erase', 'wipe', 'trash', 'permanently'],
  language: ['translate', 'language', 'french', 'spanish', 'german', 'english'],
  picture: ['image', 'picture', 'photo', 'illustration', 'draw'],
  code: ['git', 'commit', 'repository', 'changes', 'code', 'save'],
  shell: ['shell', 'command', 'bash', 'terminal', 'execute'],
};
const WORD_TO_CONCEPT = new Map<string, number>();
Object.values(CONCEPTS).forEach((words, index) => words.forEach((word) => WORD_TO_CONCEPT.set(word, index)));
const HASH_DIMENSIONS = 512;
export const EMBEDDING_DIMENSIONS = Object.keys(CONCEPTS).length + HASH_DIMENSIONS;

export async function fakeEmbedder(text: string): Promise<Float32Array> {
  const vector = new Float32Array(EMBEDDING_DIMENSIONS);
  for (const raw of text.toLowerCase().split(/[^a-z]+/)) {
    if (raw.length < 3) continue;
    const word = raw.endsWith('s') && WORD_TO_CONCEPT.has(raw.slice(0, -1)) ? raw.slice(0, -1) : raw;
    const concept = WORD_TO_CONCEPT.get(word);
    if (concept !== undefined) vector[concept] = 1;
    const padded = `^${word}$`;
    for (let i = 0; i + 3 <= padded.length; i++) vector[Object.keys(CONCEPTS).length + (hash(padded.slice(i, i + 3)) % HASH_DIMENSIONS)]! += 0.15;
  }
  return vector;
}

function hash(word: string): number {
  let h = 0;
  for (let i = 0; i < word.length; i++) h = (h * 31 + word.charCodeAt(i)) >>> 0;
  return h;
}
