// Every block of code in docs/durable.md runs and does what the text says (test/docs/README.md).
import { describeDocument } from '../support/document.js';

describeDocument('docs/durable.md');
