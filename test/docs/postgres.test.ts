// Every block of code in docs/postgres.md runs and does what the text says (test/docs/README.md); the
// blocks that need a Postgres server run in test/postgres/docs.test.ts.
import { describeDocument } from '../support/document.js';

describeDocument('docs/postgres.md');
