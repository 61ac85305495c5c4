// The blocks of docs/postgres.md that need a Postgres server (flagged `postgres`, test/docs/README.md),
// run against the test cluster: $DATABASE_URL is a database of its own. (The page's other blocks run
// in test/docs/postgres.test.ts; its walkthrough with two workers, in test/dbos/walkthrough.test.ts.)
import { inject } from 'vitest';
import { describeDocument } from '../support/document.js';
import { dbosUrl } from '../support/dbos.js';
import { createDatabase } from '../support/postgres.js';

let url: Promise<string> | undefined;
describeDocument('docs/postgres.md', { postgres: () => (url ??= createDatabase(inject('postgres').url, 'docs').then(dbosUrl)) });
