// Every block of code in docs/postgres-dbos-notes.md runs and does what the text says (test/docs/README.md).
import { describeDocument } from '../support/document.js';

describeDocument('docs/postgres-dbos-notes.md');
