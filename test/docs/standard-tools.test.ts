// Every block of code in docs/standard-tools.md runs and does what the text says (test/docs/README.md).
import { describeDocument } from '../support/document.js';

describeDocument('docs/standard-tools.md');
