// Every block of code in README.md runs and does what the text says (test/docs/README.md).
import { describeDocument } from '../support/document.js';

describeDocument('README.md');
